/**
 * Ruling 35 row by row: a POST reads only when its operation ID's last part begins with the whole word
 * Search or List and holds no word that names a change (without an ID: a path segment `search`); a path
 * must keep the template's shape, each parameter one encoded segment; a search's required body fields are
 * filled from the description or the profile, else it is not called; a doubtful operation is called only
 * when the user names it.
 */
import { describe, expect, it } from 'vitest';
import { describeText, planOperations } from '../../src/openapi/index.js';
import { fillPath, templateShapeProblem } from '../../src/openapi/path-shape.js';
import { camelWords, readingPostVerdict } from '../../src/openapi/read-rules.js';
import { isHarnessError } from '../../src/errors.js';
import { PAGE_BODY_YAML } from './support.js';

const PAGE_BODY = PAGE_BODY_YAML;

function post(path: string, operationId?: string, body = PAGE_BODY): string {
  return `  ${JSON.stringify(path)}:\n    post:\n${operationId ? `      operationId: ${operationId}\n` : ''}${body}\n`;
}

function get(path: string, extra = ''): string {
  return `  ${JSON.stringify(path)}:\n    get:\n      operationId: x.Things.List\n      parameters:\n        - { in: query, name: page_size, schema: { type: integer } }\n        - { in: query, name: page_token, schema: { type: string } }${extra}\n      responses: { "200": { description: ok } }\n`;
}

function doc(paths: string, schemas = ''): string {
  return `openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths:\n${paths}components:\n  schemas:\n    Page:\n      type: object\n      properties: { pageSize: { type: integer }, pageToken: { type: string } }\n${schemas}`;
}

const byKey = (text: string) => new Map(describeText(text, 'hostile.yaml').operations.map((op) => [`${op.method} ${op.path}`, op]));
const profile = { apps: { entitlements: { large: { appId: 'APP-1', count: 237 } } } };

describe('ruling 35: whole words of the operation ID, never prefixes', () => {
  it('splits camel case into words (acronyms and plurals kept whole)', () => {
    expect(camelWords('SearchGrantFeed')).toEqual(['Search', 'Grant', 'Feed']);
    expect(camelWords('ListOwnerIDs')).toEqual(['List', 'Owner', 'IDs']);
    expect(camelWords('ListenerCreate')).toEqual(['Listener', 'Create']);
    expect(camelWords('SAMLSettingsList')).toEqual(['SAML', 'Settings', 'List']);
  });

  it.each([
    ['c1.api.webhooks.v1.Webhooks.ListenerCreate', false, /first word is "Listener"|"Create"/],
    ['c1.api.app.v1.Grants.SearchAndRevoke', false, /"Revoke", which names a change/],
    ['c1.api.app.v1.AppEntitlementUserBindingService.SearchGrantFeed', true, undefined],
    ['c1.api.systemlog.v1.SystemLogService.ListEvents', true, undefined],
    ['c1.api.app.v1.AppSearch.Search', true, undefined],
    ['x.Things.Searcher', false, /first word is "Searcher"/],
    ['x.Things.ListAndDelete', false, /"Delete"/],
    ['x.Things.SearchThenForceSync', false, /"Force"/],
    ['x.Things.listEvents', true, undefined],
  ])('%s: read %s', (operationId, read, why) => {
    const verdict = readingPostVerdict({ path: '/api/v1/search/things', operationId });
    expect(verdict.read).toBe(read);
    if (!verdict.read && why) expect(verdict.why).toMatch(why);
  });

  it('a change word is not a doubt: no opt-in; a name that merely does not say "search" is one', () => {
    expect(readingPostVerdict({ path: '/x', operationId: 'a.B.ListenerCreate' })).toMatchObject({ read: false, doubt: false });
    expect(readingPostVerdict({ path: '/x', operationId: 'a.B.Feed' })).toMatchObject({ read: false, doubt: true });
  });

  it('without an operation ID only a path segment "search" makes a POST a read (not "research", not "searches")', () => {
    expect(readingPostVerdict({ path: '/api/v1/search/things' }).read).toBe(true);
    expect(readingPostVerdict({ path: '/api/v1/research/things' }).read).toBe(false);
    expect(readingPostVerdict({ path: '/api/v1/searches' }).read).toBe(false);
  });

  it('the classification: ListenerCreate and SearchAndRevoke with page fields are not called; SearchGrantFeed is', () => {
    const ops = byKey(doc(post('/api/v1/webhooks', 'c1.api.webhooks.v1.Webhooks.ListenerCreate') + post('/api/v1/grants/revoke', 'c1.api.app.v1.Grants.SearchAndRevoke') + post('/api/v1/grants/feed', 'c1.api.app.v1.AppEntitlementUserBindingService.SearchGrantFeed')));
    expect(ops.get('POST /api/v1/webhooks')).toMatchObject({ paginated: 'body', called: false });
    expect(ops.get('POST /api/v1/webhooks')!.optIn).toBeUndefined();
    expect(ops.get('POST /api/v1/grants/revoke')!.reason).toMatch(/"Revoke", which names a change.*ruling 35/);
    expect(ops.get('POST /api/v1/grants/feed')!.called).toBe(true);
  });
});

describe('ruling 35: a path keeps its template\'s shape', () => {
  it.each([
    ['/api/v1/search/../apps', /dot segment \(".."\)/],
    ['/api/v1/search/./apps', /dot segment \("."\)/],
    ['/api/v1/search/%2e%2e/apps/delete', /percent-encoded byte \(%2e\)/],
    ['/api/v1/search%2Fapps', /percent-encoded byte \(%2F\)/],
    ['@127.0.0.1:9/api/v1/things', /does not start with "\/"|"@"/],
    ['/@127.0.0.1:9/api/v1/things', /"@"/],
    ['http://127.0.0.1:9/api/v1/things', /absolute URL/],
    ['//127.0.0.1:9/api/v1/things', /starts with "\/\/"/],
    ['/api/v1//things', /empty segment/],
    ['/api/v1/things?x=1', /"\?"/],
    ['/api/v1/things#x', /"#"/],
    ['/api/v1\\things', /backslash/],
    ['/api/v1/th ings', /cannot carry/],
  ])('%s is refused', (template, why) => {
    expect(templateShapeProblem(template)).toMatch(why);
  });

  it('plain templates pass, a parameter may share a segment, a trailing slash is kept', () => {
    for (const template of ['/api/v1/apps', '/api/v1/apps/{app_id}/entitlements', '/api/v1/files/{name}.json', '/api/v1/things:search', '/api/v1/apps/']) expect(templateShapeProblem(template)).toBeUndefined();
  });

  it('each parameter is one segment: space ? # @ encoded; "/", "\\", "%", ".", ".." and "" refused', () => {
    expect(fillPath('/api/v1/apps/{v}', { v: 'a b?c#d@f' })).toEqual({ path: '/api/v1/apps/a%20b%3Fc%23d%40f' });
    for (const value of ['../apps', 'a/b', 'a\\b', '%2e%2e', 'a\u0000b']) expect(fillPath('/api/v1/search/{v}', { v: value }), value).toEqual({ problem: expect.stringMatching(/holds "\/", "\\", "%" or a control character/) });
    expect(fillPath('/api/v1/apps/{v}', { v: 'a.b' })).toEqual({ path: '/api/v1/apps/a.b' });
    expect(fillPath('/api/v1/search/{v}', { v: '..' })).toEqual({ problem: expect.stringMatching(/\{v\} is "\.\.", a dot segment/) });
    expect(fillPath('/api/v1/search/{v}', { v: '.' })).toEqual({ problem: expect.stringMatching(/\{v\} is "\."/) });
    expect(fillPath('/api/v1/search/{v}', { v: '' })).toEqual({ problem: expect.stringMatching(/no value/) });
  });

  it('hostile path keys are listed as not called with the reason; the other operations still are', () => {
    const ops = byKey(doc(post('/api/v1/search/../apps') + post('/api/v1/search/%2e%2e/apps/delete') + get('@127.0.0.1:9/api/v1/things') + get('//127.0.0.1:9/api/v1/things') + get('http://127.0.0.1:9/api/v1/things') + post('/api/v1/search/apps')));
    for (const key of ['POST /api/v1/search/../apps', 'POST /api/v1/search/%2e%2e/apps/delete', 'GET @127.0.0.1:9/api/v1/things', 'GET //127.0.0.1:9/api/v1/things', 'GET http://127.0.0.1:9/api/v1/things']) {
      expect(ops.get(key)?.called, key).toBe(false);
      expect(ops.get(key)?.reason, key).toMatch(/never sends a request whose path differs from the template's shape \(ruling 35\)/);
    }
    expect(ops.get('POST /api/v1/search/apps')?.called).toBe(true);
  });

  it('a profile parameter of ".." leaves its operation out, saying why', () => {
    const plan = planOperations({ profile, profileOperations: [{ method: 'POST', path: '/api/v1/search/{v}', params: { v: '..' } }, { method: 'GET', path: '/api/v1/things' }] });
    expect(plan.called.map((op) => op.sentPath)).toEqual(['/api/v1/things']);
    expect(plan.notCalled[0]?.reason).toMatch(/\{v\} is "\.\.", a dot segment.*ruling 35/);
  });

  it('a profile cannot name its way past the rules: a userinfo path, a write named List…, PUT', () => {
    const plan = planOperations({
      profile,
      profileOperations: [
        { method: 'GET', path: '@127.0.0.1:9/api/v1/things' },
        { method: 'POST', path: '/api/v1/webhooks', operationId: 'a.Webhooks.ListenerCreate', paginated: 'body' },
        { method: 'PUT', path: '/api/v1/search/apps', paginated: 'body' },
      ],
    });
    expect(plan.called).toEqual([]);
    expect(plan.notCalled.map((op) => op.reason)).toEqual([
      expect.stringMatching(/does not start with "\/".*the profile names it, which changes nothing/),
      expect.stringMatching(/"Create", which names a change.*the profile names it, which changes nothing/),
      expect.stringMatching(/^PUT creates, changes or deletes data/),
    ]);
  });

  it('an operation declaring a method override (header or _method) is never called, whatever the profile says', () => {
    const header = '\n        - { in: header, name: X-HTTP-Method-Override, schema: { type: string, enum: [DELETE] } }';
    const query = '\n        - { in: query, name: _method, schema: { type: string } }';
    const description = describeText(doc(get('/api/v1/a', header) + get('/api/v1/b', query)), 'hostile.yaml');
    const plan = planOperations({ description, profile, profileOperations: [{ method: 'GET', path: '/api/v1/a', paginated: 'query' }] });
    expect(plan.called).toEqual([]);
    expect(plan.notCalled.map((op) => op.reason)).toEqual([
      expect.stringMatching(/method-override parameter "X-HTTP-Method-Override" \(in header\).*the profile names it, which changes nothing/),
      expect.stringMatching(/method-override parameter "_method" \(in query\)/),
    ]);
  });
});

describe('ruling 35: required body fields, and the user\'s own opt-in', () => {
  const required = `      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [kind, mode, filter, version, pageSize]
              properties:
                pageSize: { type: integer }
                pageToken: { type: string }
                kind: { type: string, enum: [APP, USER] }
                mode: { type: string, default: fast }
                version: { const: 2 }
                filter:
                  type: object
                  required: [scope]
                  properties: { scope: { type: string, example: all } }
      responses: { "200": { description: ok } }`;
  const unfillable = `      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [mustHave]
              properties: { pageSize: { type: integer }, pageToken: { type: string }, mustHave: { type: string } }
      responses: { "200": { description: ok } }`;

  it('fills required fields from enum, default, const and a nested object\'s example (page fields left to the checks)', () => {
    const description = describeText(doc(post('/api/v1/search/a', 'x.A.Search', required)), 'd.yaml');
    const op = planOperations({ description, profile }).called[0]!;
    expect(op.baseBody).toEqual({ kind: 'APP', mode: 'fast', version: 2, filter: { scope: 'all' } });
    expect(op.requiredBody?.from).toEqual({ kind: 'enum', mode: 'default', version: 'const', filter: 'object' });
  });

  it('a search body whose allOf chains through 20,000 $refs is left out with a named reason, not a stack overflow', () => {
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i += 1) schemas[`S${i}`] = { allOf: [{ $ref: `#/components/schemas/S${i + 1}` }] };
    schemas.S20000 = { type: 'object', required: ['q'], properties: { pageSize: { type: 'integer' }, pageToken: { type: 'string' }, q: { type: 'string' } } };
    const text = JSON.stringify({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/api/v1/search/x': { post: { operationId: 'a.B.Search', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } } }, responses: { '200': { description: 'ok' } } } } },
      components: { schemas },
    });
    const description = describeText(text, 'deep.json');
    const planned = planOperations({ description, profile });
    expect(planned.called).toEqual([]);
    expect(planned.notCalled[0]?.reason).toMatch(/nests allOf more than 64 levels deep at #\/paths\/~1api~1v1~1search~1x\/post\/requestBody/);
  });

  it('a required field without a value leaves the search out, saying how to give it; the profile\'s body fills it', () => {
    const description = describeText(doc(post('/api/v1/search/b', 'x.B.Search', unfillable)), 'd.yaml');
    const without = planOperations({ description, profile });
    expect(without.called).toEqual([]);
    expect(without.notCalled[0]?.reason).toMatch(/required body field "mustHave" has no example, default, enum or const.*"body":\{"mustHave":"…"\}/);
    const withProfile = planOperations({ description, profile, profileOperations: [{ method: 'POST', path: '/api/v1/search/b', body: { mustHave: 'yes' } }] });
    expect(withProfile.called[0]?.baseBody).toEqual({ mustHave: 'yes' });
  });

  it('--allow-operation calls a doubtful operation (marked optedIn), refuses to name a changing one, and a name that matches nothing', () => {
    const description = describeText(doc(post('/api/v1/legacy/find', 'legacy.Finder.Find') + post('/api/v1/webhooks', 'a.B.ListenerCreate')), 'd.yaml');
    expect(planOperations({ description, profile }).called).toEqual([]);
    const allowed = planOperations({ description, profile, allow: ['post /api/v1/legacy/find'] });
    expect(allowed.called.map((op) => [op.path, op.optedIn])).toEqual([['/api/v1/legacy/find', true]]);
    expect(planOperations({ description, profile, allow: ['legacy.Finder.Find'] }).called).toHaveLength(1);
    const refuse = (allow: string[]): string => {
      try {
        planOperations({ description, profile, allow });
      } catch (error) {
        if (isHarnessError(error)) return `${error.code}: ${error.message}`;
      }
      return 'no error';
    };
    expect(refuse(['POST /api/v1/webhooks'])).toMatch(/^USAGE: --allow-operation "POST \/api\/v1\/webhooks" names POST \/api\/v1\/webhooks, which the harness never calls/);
    expect(refuse(['POST /nothing'])).toMatch(/^USAGE: .*names no operation of the run/);
    const twins = describeText(doc(post('/api/v1/legacy/find', 'legacy.Finder.Find') + post('/api/v1/legacy/find2', 'legacy.Finder.Find')), 'd.yaml');
    expect(() => planOperations({ description: twins, profile, allow: ['legacy.Finder.Find'] })).toThrow(/names 2 operations \(POST \/api\/v1\/legacy\/find, POST \/api\/v1\/legacy\/find2\)/);
  });
});
