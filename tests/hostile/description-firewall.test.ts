/**
 * Issue 41's attacks, end to end (ruling 35): a hostile OpenAPI description and profile given to `run`
 * against `serve` behind a logging proxy, with a catcher listener standing for another origin. What the
 * proxy and the catcher actually received is the verdict: only GET, the token request and POSTs to read
 * operations; no byte at the catcher (which the description also names as its `servers`); each hostile operation listed as not called with its reason while
 * the description's other operations still run; a search whose body requires a field gets it filled (a
 * target that refuses the body without it sees no such body). `run --plan` and `list` send nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_BODY_YAML } from '../openapi/support.js';
import { lines, runCli, startCatcher, startProxy, startServeTarget, writeIn, type Listener, type Seen, type ServeTarget } from './description-support.js';

const PAGE_QUERY = `
      parameters:
        - { in: query, name: page_size, schema: { type: integer } }
        - { in: query, name: page_token, schema: { type: string } }
      responses: { "200": { description: ok } }`;

const PAGE_BODY = PAGE_BODY_YAML;

const REQUIRED_BODY = (mustHave: string) => `
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [mustHave]
              properties:
                pageSize: { type: integer }
                pageToken: { type: string }
                mustHave: ${mustHave}
      responses: { "200": { description: ok } }`;

/** The description: four operations that read, and every attack of issue 41 beside them. */
function hostileDescription(catcher: number, mustHave = '{ type: string, example: yes }'): string {
  const post = (path: string, id: string | undefined, body = PAGE_BODY) => `  ${JSON.stringify(path)}:\n    post:\n${id ? `      operationId: ${id}\n` : ''}${body}\n`;
  const get = (path: string, id: string, extra = '') => `  ${JSON.stringify(path)}:\n    get:\n      operationId: ${id}${PAGE_QUERY}${extra}\n`;
  return [
    'openapi: 3.1.0',
    'info: { title: hostile, version: 0.1.0-alpha }',
    // servers naming another origin: the harness sends to the profile's baseUrl, never where a description says
    `servers: [{ url: 'http://127.0.0.1:${catcher}' }]`,
    'paths:',
    get('/api/v1/apps', 'c1.api.app.v1.Apps.List').replace('    get:\n', `    servers: [{ url: 'http://127.0.0.1:${catcher}/api' }]\n    get:\n`).trimEnd(),
    get('/api/v1/apps/{app_id}/entitlements', 'c1.api.app.v1.AppEntitlements.List').replace('      parameters:\n', '      parameters:\n        - { in: path, name: app_id, required: true, schema: { type: string } }\n').trimEnd(),
    post('/api/v1/search/apps', 'c1.api.app.v1.AppSearch.Search').trimEnd(),
    post('/api/v1/search/users', 'c1.api.user.v1.UserSearch.Search', REQUIRED_BODY(mustHave)).trimEnd(),
    // dot segments and encoded dots: classified as a search before normalization, once
    post('/api/v1/search/../apps', undefined).trimEnd(),
    post('/api/v1/search/%2e%2e/apps/delete', undefined).trimEnd(),
    // writes named with a prefix of "List" or "Search"
    post('/api/v1/webhooks', 'c1.api.webhooks.v1.Webhooks.ListenerCreate').trimEnd(),
    post('/api/v1/grants/revoke', 'c1.api.app.v1.Grants.SearchAndRevoke').trimEnd(),
    // another origin: userinfo, scheme-relative and absolute path keys
    get(`@127.0.0.1:${catcher}/api/v1/things`, 'x.Things.List').trimEnd(),
    get(`//127.0.0.1:${catcher}/api/v1/things`, 'x.Things2.List').trimEnd(),
    get(`http://127.0.0.1:${catcher}/api/v1/things`, 'x.Things3.List').trimEnd(),
    // encoded slashes, a query and a fragment in the template
    get('/api/v1/apps%2Fdelete', 'x.Encoded.List').trimEnd(),
    get('/api/v1/apps?_method=DELETE', 'x.Query.List').trimEnd(),
    get('/api/v1/apps#fragment', 'x.Fragment.List').trimEnd(),
    // method overrides the description declares: a header, a query parameter, a body field
    get('/api/v1/apps/{app_id}/owners', 'x.Owners.List', '').replace('      parameters:\n', '      parameters:\n        - { in: path, name: app_id, required: true, schema: { type: string } }\n        - { in: header, name: X-HTTP-Method-Override, required: true, schema: { type: string, enum: [DELETE] } }\n').trimEnd(),
    get('/api/v1/apps/{app_id}/app_users', 'x.AppUsers.List').replace('      parameters:\n', '      parameters:\n        - { in: path, name: app_id, required: true, schema: { type: string } }\n        - { in: query, name: _method, required: true, schema: { type: string, enum: [DELETE] } }\n').trimEnd(),
    post('/api/v1/search/entitlements', 'c1.api.app.v1.AppEntitlementSearchService.Search', REQUIRED_BODY('{ type: string }').replace('mustHave', '_method').replace('mustHave: { type: string }', '_method: { type: string, enum: [DELETE] }')).trimEnd(),
    'components:',
    '  schemas:',
    '    Page: { type: object, properties: { pageSize: { type: integer }, pageToken: { type: string } } }',
    '',
  ].join('\n');
}

/** Each hostile operation, and the reason it must be listed with. */
const HOSTILE: Array<[string, RegExp]> = [
  ['POST /api/v1/search/../apps', /dot segment \(".."\).*ruling 35/],
  ['POST /api/v1/search/%2e%2e/apps/delete', /percent-encoded byte \(%2e\)/],
  ['POST /api/v1/webhooks', /"ListenerCreate" holds the word "Create", which names a change/],
  ['POST /api/v1/grants/revoke', /"SearchAndRevoke" holds the word "Revoke"/],
  ['GET @127.0.0.1:PORT/api/v1/things', /does not start with "\/"/],
  ['GET //127.0.0.1:PORT/api/v1/things', /starts with "\/\/"/],
  ['GET http://127.0.0.1:PORT/api/v1/things', /absolute URL/],
  ['GET /api/v1/apps%2Fdelete', /percent-encoded byte \(%2F\)/],
  ['GET /api/v1/apps?_method=DELETE', /"\?"/],
  ['GET /api/v1/apps#fragment', /"#"/],
  ['GET /api/v1/apps/{app_id}/owners', /method-override parameter "X-HTTP-Method-Override" \(in header\)/],
  ['GET /api/v1/apps/{app_id}/app_users', /method-override parameter "_method" \(in query\)/],
  ['POST /api/v1/search/entitlements', /method-override parameter "_method" \(in the JSON body\)/],
  ['POST /api/v1/search/{v}', /\{v\} is "\.\.", a dot segment/],
];

const READS = ['GET /api/v1/apps', 'GET /api/v1/apps/{app_id}/entitlements', 'POST /api/v1/search/apps', 'POST /api/v1/search/users'];

/** A target stricter than serve: a user search without the field its description requires is a 400. */
const requireMustHave = (seen: Seen) =>
  seen.method === 'POST' && seen.url === '/api/v1/search/users' && !/"mustHave"/.test(seen.body) ? { status: 400, body: '{"error":"invalid_request","error_description":"mustHave is required"}' } : undefined;

/** What the proxy must never have been sent, whatever the description says. */
function expectOnlyReads(proxy: Listener, allowedPosts: string[]): void {
  const seen = lines(proxy);
  expect(seen.length).toBeGreaterThan(0);
  for (const entry of proxy.seen) {
    const line = `${entry.method} ${entry.url}`;
    expect(['GET', 'POST'], line).toContain(entry.method);
    if (entry.method === 'POST') expect(['/auth/v1/token', ...allowedPosts], line).toContain(entry.url.split('?')[0]);
    expect(line).not.toMatch(/\.\.|%2e|%2E|%2F|%2f|delete|webhooks|revoke|things|_method|\/owners|\/app_users|fragment/);
    expect(Object.keys(entry.headers).filter((name) => /method/i.test(name)), line).toEqual([]);
    expect(entry.body, line).not.toMatch(/_method/);
  }
}

function reportOf(out: string): { operations: { called: Array<{ method: string; path: string; sentPath?: string }>; notCalled: Array<{ method: string; path: string; reason: string }> }; results: Array<{ id: string; state: string; operation?: { sentPath?: string } }> } {
  return JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
}

describe('a hostile description and profile against serve behind a logging proxy', () => {
  let target: ServeTarget;
  let proxy: Listener;
  let catcher: Listener;

  beforeAll(async () => {
    target = await startServeTarget('hostile-description');
    catcher = await startCatcher();
    proxy = await startProxy(target.profile.baseUrl, requireMustHave);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([proxy?.close(), catcher?.close()]);
    await target?.close();
  });

  /** The profile pointed at the proxy, with the hostile "operations" entry; and the description beside it. */
  function files(name: string, mustHave?: string): { profile: string; description: string } {
    const profile = writeIn(target, `${name}.target.json`, JSON.stringify({ ...target.profile, baseUrl: proxy.url, openapi: undefined, operations: [{ method: 'POST', path: '/api/v1/search/{v}', params: { v: '..' } }] }));
    const description = writeIn(target, `${name}.openapi.yaml`, hostileDescription(catcher.port, mustHave));
    return { profile, description };
  }

  it('run: only GET, the token request and POSTs to the reads reach the proxy; nothing reaches the catcher; the reads run and pass', async () => {
    const { profile, description } = files('run');
    const out = join(target.dir, 'out-run');
    proxy.seen.length = 0;
    const run = await runCli(['run', '--profile', profile, '--openapi', description, '--only', 'OPS-*', '--reporter', 'json', '--out', out], target.dir);
    expect(run.stderr).not.toMatch(/INTERNAL/);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expectOnlyReads(proxy, ['/api/v1/search/apps', '/api/v1/search/users']);
    expect(catcher.seen).toEqual([]);
    // The required field was filled from the description's example: the strict proxy refused nothing.
    const userSearches = proxy.seen.filter((entry) => entry.method === 'POST' && entry.url === '/api/v1/search/users');
    expect(userSearches.length).toBeGreaterThan(0);
    expect(userSearches.every((entry) => (JSON.parse(entry.body) as Record<string, unknown>).mustHave === 'yes')).toBe(true);

    const report = reportOf(out);
    const key = (op: { method: string; path: string }) => `${op.method} ${op.path.replace(`:${catcher.port}/`, ':PORT/')}`;
    expect(report.operations.called.map(key).sort()).toEqual([...READS].sort());
    const notCalled = new Map(report.operations.notCalled.map((op) => [key(op), op.reason]));
    for (const [op, why] of HOSTILE) expect(notCalled.get(op), op).toMatch(why);
    // Every per-operation result names the path actually sent.
    const entitlements = report.results.find((result) => result.id === 'OPS-01' && result.operation?.sentPath?.includes('/entitlements'));
    expect(entitlements?.operation?.sentPath).toMatch(/^\/api\/v1\/apps\/[^/{}]+\/entitlements$/);
    expect(report.results.filter((result) => result.state === 'failed' || result.state === 'errored')).toEqual([]);
  }, 300_000);

  it('a required body field the description gives no value for: that search is listed as not called, the others still run', async () => {
    const { profile, description } = files('unfillable', '{ type: string }');
    const out = join(target.dir, 'out-unfillable');
    proxy.seen.length = 0;
    const run = await runCli(['run', '--profile', profile, '--openapi', description, '--only', 'OPS-01,OPS-04', '--reporter', 'json', '--out', out], target.dir);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expectOnlyReads(proxy, ['/api/v1/search/apps']);
    expect(catcher.seen).toEqual([]);
    const report = reportOf(out);
    expect(report.operations.notCalled.find((op) => op.path === '/api/v1/search/users')?.reason).toMatch(/required body field "mustHave" has no example, default, enum or const/);
    expect(report.operations.called.map((op) => `${op.method} ${op.path}`)).toContain('POST /api/v1/search/apps');
  }, 300_000);

  it('run --plan sends nothing at all, and lists every operation: the reads with what they would send, the others with why', async () => {
    const { profile, description } = files('plan');
    proxy.seen.length = 0;
    const run = await runCli(['run', '--profile', profile, '--openapi', description, '--plan'], target.dir);
    expect(run.code, run.stderr).toBe(0);
    expect(proxy.seen).toEqual([]);
    expect(catcher.seen).toEqual([]);
    expect(run.stdout).toMatch(/18 operations: 4 called, 14 not called\. Nothing was sent to any of them\./);
    expect(run.stdout).toMatch(/sends: POST \/api\/v1\/search\/users\n.*\n\s+body: \{"mustHave":"yes","pageSize":N,"pageToken":"TOKEN"\}/);
    expect(run.stdout).toMatch(/sends: GET \/api\/v1\/apps\/[^/\s]+\/entitlements\?page_size=N&page_token=TOKEN/);
    expect(run.stdout).toMatch(/POST {3}\/api\/v1\/search\/\.\.\/apps\n\s+why: its path holds a dot segment/);
  }, 120_000);

  it('list --openapi reads the hostile description without an internal error, and calls none of the attacks', async () => {
    const { description } = files('list');
    const run = await runCli(['list', '--openapi', description, '--format', 'json'], target.dir);
    expect(run.code, run.stderr).toBe(0);
    const listing = JSON.parse(run.stdout) as { operations: Array<{ method: string; path: string; called: boolean }> };
    expect(listing.operations.filter((op) => op.called).map((op) => `${op.method} ${op.path}`).sort()).toEqual([...READS].sort());
    expect(catcher.seen).toEqual([]);
  }, 60_000);
});
