/**
 * A generated OpenAPI description of N paginated list and search operations, for the scale runs (issue 40):
 * each operation is one of the reference's own paginated operations (GET /api/v1/apps, the three searches)
 * under its own path, `/api/v1/g<i>/…`. The target is the reference itself behind a handler that maps
 * `/api/v1/g<i>/…` back to `/api/v1/…` (bench/scale-target.ts): a correct target whose every generated
 * operation pages over the tenant's 120 apps, 150 users or 292 entitlements, so every per-operation check
 * has real pages to walk and must pass.
 *
 * Deterministic: the same N gives the same document (operation i takes template i mod 4).
 */
import { referenceOpenApiDocument } from '../src/reference/openapi-document.js';

/** The reference's paginated operations that take no path parameter: the templates. */
const TEMPLATES: ReadonlyArray<{ path: string; method: 'get' | 'post' }> = [
  { path: '/api/v1/apps', method: 'get' },
  { path: '/api/v1/search/apps', method: 'post' },
  { path: '/api/v1/search/users', method: 'post' },
  { path: '/api/v1/search/entitlements', method: 'post' },
];

const PREFIX = '/api/v1/';

/** The generated path of operation `i` of a template path: `/api/v1/g0042/search/apps`. */
export function generatedPath(template: string, i: number): string {
  return `${PREFIX}g${String(i).padStart(5, '0')}/${template.slice(PREFIX.length)}`;
}

/** The reference path a generated one stands for (the target's rewrite); other paths are left as they are. */
export function templatePath(url: string): string {
  return url.replace(/^\/api\/v1\/g\d{5}\//, PREFIX);
}

/** The description of `count` generated operations, served from `baseUrl`. */
export function scaleDescription(baseUrl: string, count: number): Record<string, unknown> {
  const reference = referenceOpenApiDocument(baseUrl) as { paths: Record<string, Record<string, { operationId?: string }>>; info: Record<string, unknown> };
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < count; i += 1) {
    const template = TEMPLATES[i % TEMPLATES.length]!;
    const operation = reference.paths[template.path]![template.method]!;
    // The number goes on the ID's last part (`…Search.SearchG3`): a part of its own (`….g3`) would make
    // the POST searches doubtful reads under ruling 35, and the harness would not call them.
    paths[generatedPath(template.path, i)] = { [template.method]: { ...operation, operationId: `${operation.operationId}G${i}` } };
  }
  return { ...reference, info: { ...reference.info, title: `generated: ${count} paginated operations`, version: `scale-${count}` }, paths };
}
