/**
 * The real service's description (../shared/openapi/, never copied here): all 203 operations classified,
 * the 53 paginated ones found (29 query GET + 24 body POST), nothing that creates, changes or deletes
 * marked called. Skipped, saying why, where ../shared/ is absent. Time and memory: `npm run bench`.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { describeText, planOperations } from '../../src/openapi/index.js';
import { HAS_REAL_DESCRIPTION, NO_REAL_DESCRIPTION_REASON, REAL_DESCRIPTION } from './support.js';
import { describeWith } from '../support/capabilities.js';

describeWith('real-description', HAS_REAL_DESCRIPTION, NO_REAL_DESCRIPTION_REASON, 'the real description', () => {
  const loaded = HAS_REAL_DESCRIPTION ? describeText(readFileSync(REAL_DESCRIPTION, 'utf8'), REAL_DESCRIPTION) : undefined;
  const ops = loaded?.operations ?? [];

  it('203 operations, each classified with a reason exactly when not called', () => {
    expect(ops).toHaveLength(203);
    for (const op of ops) {
      expect(['query', 'body', false]).toContain(op.paginated);
      expect(typeof op.reason === 'string', `${op.method} ${op.path}`).toBe(!op.called);
    }
  });

  it('53 paginated: 29 GET with the page in the query, 24 POST with pageSize/pageToken in the body', () => {
    expect(ops.filter((op) => op.paginated === 'query' && op.method === 'GET')).toHaveLength(29);
    const body = ops.filter((op) => op.paginated === 'body');
    expect(body).toHaveLength(24);
    expect(body.every((op) => op.method === 'POST' && op.bodyFields?.pageSize === 'pageSize' && op.bodyFields.pageToken === 'pageToken')).toBe(true);
    expect(body.find((op) => op.path === '/api/v1/search/apps')?.operationId).toBe('c1.api.app.v1.AppSearch.Search');
  });

  it('no operation that creates, changes or deletes is called: only the 53 list and search operations', () => {
    const called = ops.filter((op) => op.called);
    expect(called).toHaveLength(53);
    // Ruling 35's exact rules keep every read of the real description: 29 GET lists and 24 POST searches.
    expect(called.filter((op) => op.method === 'GET')).toHaveLength(29);
    expect(called.filter((op) => op.method === 'POST')).toHaveLength(24);
    expect(ops.filter((op) => op.optIn)).toEqual([]);
    expect(called.every((op) => op.paginated !== false && (op.method === 'GET' || op.method === 'POST'))).toBe(true);
    expect(ops.filter((op) => ['PUT', 'PATCH', 'DELETE'].includes(op.method) && op.called)).toEqual([]);
    // The creating POSTs of the same paths as lists stay uncalled.
    expect(ops.find((op) => op.method === 'POST' && op.path === '/api/v1/apps/{app_id}/entitlements')?.called).toBe(false);
  });

  it('the facts ruling 34 checks: 3.1.0, 0.1.0-alpha, bearer and client credentials at /auth/v1/token with no scopes, no owner-IDs path', () => {
    expect(loaded?.facts).toMatchObject({ openapi: '3.1.0', infoVersion: '0.1.0-alpha', counts: { operations: 203, paginated: 53, query: 29, body: 24 } });
    expect(loaded?.facts.securitySchemes).toEqual([
      { name: 'bearerAuth', type: 'http', scheme: 'bearer' },
      { name: 'oauth', type: 'oauth2', clientCredentials: { tokenUrl: '/auth/v1/token', scopes: [] } },
    ]);
    expect(loaded?.facts.ownerIds).toBeUndefined();
  });

  it('the app entitlements list is wrapped in appEntitlement, the apps list bare; the plan is plain JSON', () => {
    expect(ops.find((op) => op.method === 'GET' && op.path === '/api/v1/apps/{app_id}/entitlements')?.itemWrapper).toBe('appEntitlement');
    expect(ops.find((op) => op.method === 'GET' && op.path === '/api/v1/apps')?.itemWrapper).toBeUndefined();
    const plan = planOperations({ description: loaded!, profile: { apps: { entitlements: { large: { appId: 'A', count: 237 } } } } });
    expect(plan.called.length + plan.notCalled.length).toBe(203);
    expect(() => JSON.stringify(plan)).not.toThrow();
  });
});
