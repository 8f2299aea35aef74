/**
 * Classification per ruling 34 on a small description shaped like the real one: which operations page
 * where, which the harness calls and, for the others, why; a bad document is a HarnessError naming where.
 */
import { describe, expect, it } from 'vitest';
import { describeText } from '../../src/openapi/index.js';
import { harnessError, SMALL_YAML } from './support.js';

const byKey = (text: string) => new Map(describeText(text, 'small.yaml').operations.map((op) => [`${op.method} ${op.path}`, op]));

describe('describeOperations: ruling 34, row by row', () => {
  const ops = byKey(SMALL_YAML);

  it('a GET with page_size and page_token in the query (one through a $ref parameter) is a called query list', () => {
    const op = ops.get('GET /api/v1/apps')!;
    expect(op).toMatchObject({ paginated: 'query', called: true, operationId: 'c1.api.app.v1.Apps.List', tags: ['App'], listProperty: 'list', pathParams: [] });
    expect(op.reason).toBeUndefined();
  });

  it('a POST search whose body declares pageSize/pageToken is called, with that spelling and service.md\'s as the other', () => {
    expect(ops.get('POST /api/v1/search/apps')).toMatchObject({
      paginated: 'body',
      called: true,
      bodyFields: { pageSize: 'pageSize', pageToken: 'pageToken', alsoAccepts: { pageSize: 'page_size', pageToken: 'page_token' } },
    });
  });

  it('a paginated POST that is not named a search or list is not called (it may change data), and says how to name it to call it', () => {
    const op = ops.get('POST /api/v1/legacy/find')!;
    expect(op.paginated).toBe('body');
    expect(op.called).toBe(false);
    expect(op.optIn).toBe(true);
    expect(op.reason).toMatch(/not named a search or list \(its operation ID's last part "Find" does not begin with the word "Search" or "List".*does not call it \(ruling 35\); to call it anyway, name it yourself: run --allow-operation 'POST \/api\/v1\/legacy\/find'/);
  });

  it('POST without page fields, PUT and DELETE are never called, each saying why', () => {
    expect(ops.get('POST /api/v1/apps')).toMatchObject({ paginated: false, called: false });
    expect(ops.get('POST /api/v1/apps')!.reason).toMatch(/may change data/);
    expect(ops.get('PUT /api/v1/apps/{app_id}')!.reason).toMatch(/^PUT creates, changes or deletes data/);
    expect(ops.get('DELETE /api/v1/apps/{app_id}')!.reason).toMatch(/^DELETE creates, changes or deletes data/);
  });

  it('a GET without page fields is not called: no per-operation check applies', () => {
    expect(ops.get('GET /api/v1/apps/{app_id}')).toMatchObject({ called: false, paginated: false, pathParams: ['app_id'] });
    expect(ops.get('GET /api/v1/apps/{app_id}')!.reason).toMatch(/not a list or search operation/);
  });

  it('the item wrapper is the one the description names (…View with its property), else none', () => {
    expect(ops.get('GET /api/v1/apps/{app_id}/entitlements')!.itemWrapper).toBe('appEntitlement');
    expect(ops.get('GET /api/v1/apps')!.itemWrapper).toBeUndefined();
  });

  it('no operation with a method other than GET or POST is ever marked called', () => {
    expect([...ops.values()].filter((op) => op.called && !['GET', 'POST'].includes(op.method))).toEqual([]);
  });

  it('the facts: version, info.version, the two schemes, the owner-IDs operation', () => {
    const { facts } = describeText(SMALL_YAML, 'small.yaml');
    expect(facts).toMatchObject({
      openapi: '3.1.0',
      infoVersion: '0.1.0-alpha',
      ownerIds: { operationId: 'c1.api.app.v1.AppOwners.ListOwnerIDs', tags: ['App Owner'] },
      counts: { operations: 10, paginated: 5, query: 3, body: 2 },
    });
    expect(facts.securitySchemes).toEqual([
      { name: 'bearerAuth', type: 'http', scheme: 'bearer' },
      { name: 'oauth', type: 'oauth2', clientCredentials: { tokenUrl: '/auth/v1/token', scopes: [] } },
    ]);
  });

  it('JSON reads the same as YAML', () => {
    const json = JSON.stringify(describeText(SMALL_YAML, 'x').document);
    expect(describeText(json, 'small.json').operations.map((op) => [op.method, op.path, op.called])).toEqual(
      [...ops.values()].map((op) => [op.method, op.path, op.called]),
    );
  });
});

describe('a bad document: exit 2, naming what is wrong and where', () => {
  it('YAML syntax: the line and column', () => {
    const error = harnessError(() => describeText('openapi: 3.1.0\npaths:\n  /a: [unclosed\n', 'bad.yaml'));
    expect(error.code).toBe('OPENAPI_INVALID');
    expect(error.message).toMatch(/bad\.yaml is not valid YAML \(at line \d+, column \d+\)/);
  });

  it('JSON syntax: the line and column', () => {
    const error = harnessError(() => describeText('{\n  "openapi": "3.1.0",\n  "paths": {,}\n}', 'bad.json'));
    expect(error).toMatchObject({ code: 'OPENAPI_INVALID' });
    expect(error.message).toMatch(/bad\.json is not valid JSON \(at line 3, column \d+\)/);
  });

  it('a duplicate key is refused (YAML would silently keep one)', () => {
    expect(harnessError(() => describeText('openapi: 3.1.0\nopenapi: 3.0.3\npaths: {}\n', 'dup.yaml')).message).toMatch(/not valid YAML/);
  });

  it('an alias bomb is refused, not expanded', () => {
    const rows = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i += 1) rows.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    const error = harnessError(() => describeText(`openapi: 3.1.0\npaths: {}\nx:\n${rows.map((row) => `  ${row}`).join('\n')}\n`, 'bomb.yaml'));
    expect(error.code).toBe('OPENAPI_INVALID');
  });

  it('Swagger 2, no "openapi", a number for "openapi", not an object', () => {
    expect(harnessError(() => describeText('swagger: "2.0"\npaths: {}\n', 's.yaml')).message).toMatch(/is Swagger 2\.0, not OpenAPI 3/);
    expect(harnessError(() => describeText('info: {}\npaths: {}\n', 's.yaml')).message).toMatch(/has no "openapi" field/);
    expect(harnessError(() => describeText('openapi: 3.1\npaths: {}\n', 's.yaml')).message).toMatch(/not a string/);
    expect(harnessError(() => describeText('- a\n- b\n', 's.yaml')).message).toMatch(/is an array, not an OpenAPI document/);
  });

  it('a $ref to nothing, to another file, or in a cycle leaves the operation out, naming the JSON pointer', () => {
    const withRef = (ref: string) => `openapi: 3.1.0\npaths:\n  /a:\n    get:\n      parameters:\n        - $ref: '${ref}'\n      responses: {}\ncomponents:\n  parameters:\n    A: { $ref: '#/components/parameters/B' }\n    B: { $ref: '#/components/parameters/A' }\n`;
    const reason = (ref: string) => describeText(withRef(ref), 'r.yaml').operations[0]?.reason;
    expect(reason('#/components/parameters/Nope')).toMatch(/cannot be used: it has a \$ref to nothing at #\/paths\/~1a\/get\/parameters\/0/);
    expect(reason('other.yaml#/P')).toMatch(/\$ref to another document at #\/paths\/~1a\/get\/parameters\/0/);
    expect(reason('#/components/parameters/A')).toMatch(/\$ref cycle at .*A → #\/components\/parameters\/B → #\/components\/parameters\/A/);
  });

  it('a description that says 3.0.3 is read (the MUST check judges it), not refused', () => {
    expect(describeText(SMALL_YAML.replace('openapi: 3.1.0', 'openapi: 3.0.3'), 'old.yaml').facts.openapi).toBe('3.0.3');
  });
});
