/**
 * The run's plan: path parameters from the profile, the profile's own operations, and the rule no profile
 * can bend: an operation that creates, changes or deletes is never called.
 */
import { describe, expect, it } from 'vitest';
import { describeText, planOperations, validateResponse, type ProfileOperation } from '../../src/openapi/index.js';
import { SMALL_YAML } from './support.js';

const description = describeText(SMALL_YAML, 'small.yaml');
const profile = { apps: { entitlements: { large: { appId: 'APP-LARGE', count: 237 }, exact: { appId: 'APP-EXACT', count: 50 } } } };
const key = (op: { method: string; path: string }) => `${op.method} ${op.path}`;

describe('planOperations', () => {
  it('fills {app_id} with the large app and skips what it cannot fill, saying how to fill it', () => {
    const plan = planOperations({ description, profile });
    const entitlements = plan.called.find((op) => op.path === '/api/v1/apps/{app_id}/entitlements')!;
    expect(entitlements.params).toEqual({ app_id: 'APP-LARGE' });
    const grants = plan.notCalled.find((op) => op.path === '/api/v1/apps/{app_id}/users/{user_id}/grants')!;
    expect(grants.called).toBe(false);
    expect(grants.reason).toBe(
      'path parameter {user_id} cannot be filled from the profile (give it in the profile\'s "operations": {"method":"GET","path":"/api/v1/apps/{app_id}/users/{user_id}/grants","params":{"user_id":"…"}})',
    );
    expect(plan.called.map(key).sort()).toEqual(['GET /api/v1/apps', 'GET /api/v1/apps/{app_id}/entitlements', 'POST /api/v1/search/apps']);
    expect(plan.description?.openapi).toBe('3.1.0');
  });

  it('a search gets a base body ({} unless the profile gives one); a GET none', () => {
    const plan = planOperations({ description, profile, profileOperations: [{ method: 'post', path: '/api/v1/search/apps', body: { query: 'x' } }] });
    expect(plan.called.find((op) => op.path === '/api/v1/search/apps')!.baseBody).toEqual({ query: 'x' });
    expect(plan.called.find((op) => op.path === '/api/v1/apps')!.baseBody).toBeUndefined();
  });

  it('the profile fills the other parameters, and may name an operation the description does not page', () => {
    const profileOperations: ProfileOperation[] = [
      { method: 'GET', path: '/api/v1/apps/{app_id}/users/{user_id}/grants', params: { app_id: 'A2', user_id: 'U1' } },
      { method: 'GET', path: '/api/v1/apps/{app_id}', itemWrapper: 'app' },
    ];
    const plan = planOperations({ description, profile, profileOperations });
    expect(plan.called.find((op) => op.path.endsWith('/grants'))!.params).toEqual({ app_id: 'A2', user_id: 'U1' });
    expect(plan.called.find((op) => op.path === '/api/v1/apps/{app_id}')).toMatchObject({ paginated: 'query', itemWrapper: 'app', params: { app_id: 'APP-LARGE' } });
  });

  it('whatever the profile says, PUT, DELETE and a POST that is not a search are never called', () => {
    const profileOperations: ProfileOperation[] = [
      { method: 'PUT', path: '/api/v1/apps/{app_id}', paginated: 'body' },
      { method: 'DELETE', path: '/api/v1/apps/{app_id}' },
      { method: 'POST', path: '/api/v1/apps', paginated: 'body' },
      { method: 'PATCH', path: '/api/v1/not/described' },
      { method: 'POST', path: '/api/v1/not/described', paginated: 'body' },
    ];
    const plan = planOperations({ description, profile, profileOperations });
    const called = new Set(plan.called.map(key));
    for (const op of profileOperations) expect(called.has(key({ ...op, method: op.method.toUpperCase() })), key(op)).toBe(false);
    expect(plan.notCalled.find((op) => key(op) === 'PUT /api/v1/apps/{app_id}')!.reason).toMatch(/never calls it.*the profile names it, which changes nothing/);
    expect(plan.notCalled.find((op) => key(op) === 'PATCH /api/v1/not/described')!.reason).toMatch(/^PATCH creates, changes or deletes/);
  });

  it('without a description: the profile\'s search pages with service.md\'s page_size (ruling 34)', () => {
    const plan = planOperations({ profile, profileOperations: [{ method: 'POST', path: '/api/v1/search/things' }, { method: 'GET', path: '/api/v1/things' }] });
    expect(plan.description).toBeUndefined();
    expect(plan.called.map((op) => [key(op), op.paginated, op.bodyFields])).toEqual([
      ['POST /api/v1/search/things', 'body', { pageSize: 'page_size', pageToken: 'page_token' }],
      ['GET /api/v1/things', 'query', undefined],
    ]);
  });
});

describe('validateResponse (SHOULD: an answer fits the description\'s 200 schema)', () => {
  const plan = planOperations({ description, profile });
  const apps = plan.called.find((op) => op.path === '/api/v1/apps')!;
  const entitlements = plan.called.find((op) => op.path === '/api/v1/apps/{app_id}/entitlements')!;

  it('a fitting answer has no error; null where the description says nullable is allowed', () => {
    expect(validateResponse(apps, 200, { list: [{ id: 'a', parent: { id: 'b' } }], nextPageToken: '' })).toEqual([]);
    expect(validateResponse(apps, 200, { list: null, nextPageToken: null })).toEqual([]);
  });

  it('a wrong answer: the first errors, each with its JSON pointer, through the recursive schema', () => {
    const errors = validateResponse(entitlements, 200, { list: [{ appEntitlement: { children: [{ id: 7 }] } }], nextPageToken: 3 });
    expect(errors).toEqual(expect.arrayContaining(['/list/0/appEntitlement: must have required property \'id\'', '/list/0/appEntitlement/children/0/id: must be string', '/nextPageToken: must be string']));
  });

  it('a status other than 200, or an operation without a schema, is not judged', () => {
    expect(validateResponse(apps, 401, { anything: 1 })).toEqual([]);
    expect(validateResponse({ method: 'GET', path: '/x' }, 200, 42)).toEqual([]);
  });

  it('the plan is plain JSON (it travels to the suite thread): a recursive schema stays finite', () => {
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
  });

  it('at most MAX_SCHEMA_ERRORS errors', () => {
    const list = Array.from({ length: 20 }, () => ({ id: 1 }));
    expect(validateResponse(apps, 200, { list }).length).toBe(5);
  });
});
