/**
 * A fixture tenant for token, API and pagination tests: a token endpoint that hands out numbered tokens,
 * owner IDs behind bearer auth, entitlement apps with healthy and faulty pagination, and test hooks.
 */
import { decodeJwtParts } from '../../../src/crypto/index.js';
import { json, startFixture, type Fixture } from './fixtures.js';

export interface TenantFixture extends Fixture {
  /** Tokens issued so far, in order. */
  issued: string[];
  /** Tokens the API accepts; delete one to simulate expiry on the server. */
  valid: Set<string>;
  /** `expires_in` of the next tokens. */
  expiresIn: number;
  /** When set, the token endpoint answers this status with an error body. */
  refuseWith?: number;
  /** The target clock offset (seconds) the hooks report; POST /clock adds to it. */
  clockOffset: number;
  /** When set, POST /clock answers this status. */
  clockStatus?: number;
  /** Parsed form bodies of token requests. */
  tokenForms: Array<Record<string, string>>;
}

const ITEMS = Array.from({ length: 57 }, (_, i) => ({ appEntitlement: { id: `ent-${String(i).padStart(3, '0')}` } }));

export async function startTenantFixture(hooksToken: string): Promise<TenantFixture> {
  let counter = 0;
  // The handler reads the returned object, so tests can change it between calls.
  let tf!: TenantFixture;
  const fixture = await startFixture((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    if (path === '/auth/v1/token' && req.method === 'POST') {
      const form = Object.fromEntries(new URLSearchParams(body.toString('utf8')));
      tf.tokenForms.push(form);
      if (tf.refuseWith) return json(res, tf.refuseWith, { error: 'invalid_client' });
      if (form.client_assertion && !decodeJwtParts(form.client_assertion).payload) return json(res, 400, { error: 'invalid_request' });
      counter += 1;
      const token = `tok-${counter}-${'z'.repeat(24)}`;
      tf.issued.push(token);
      tf.valid.add(token);
      return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: tf.expiresIn }, { 'cache-control': 'no-store' });
    }
    if (path.startsWith('/__hooks/v1/')) {
      if (req.headers.authorization !== `Bearer ${hooksToken}`) return json(res, 401, {});
      const now = Date.now() / 1000 + tf.clockOffset;
      if (path === '/__hooks/v1/clock' && req.method === 'GET') return json(res, 200, { now });
      if (path === '/__hooks/v1/clock' && req.method === 'POST') {
        if (tf.clockStatus) return json(res, tf.clockStatus, {});
        const { advanceSeconds } = JSON.parse(body.toString('utf8')) as { advanceSeconds: number };
        tf.clockOffset += advanceSeconds;
        return json(res, 200, { now: now + advanceSeconds });
      }
      if (path === '/__hooks/v1/runs') return json(res, 200, { runs: [{ eventId: 'e-1', context: { a: 1 }, at: now }] });
      return json(res, 404, {});
    }
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (!tf.valid.has(token)) return json(res, 401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer' });
    const owners = /^\/api\/v1\/apps\/([^/]+)\/ownerids$/.exec(path);
    if (owners) return json(res, 200, { userIds: ['u-1', 'u-2'] });
    const ents = /^\/api\/v1\/apps\/([^/]+)\/entitlements$/.exec(path);
    if (ents) {
      const app = decodeURIComponent(ents[1] ?? '');
      const pageToken = url.searchParams.get('page_token') ?? '';
      const size = Math.min(100, Math.max(10, Number(url.searchParams.get('page_size') ?? 25) || 25));
      if (app === 'loop') return json(res, 200, { list: ITEMS.slice(0, size), nextPageToken: 'same' });
      if (app === 'loop-later') {
        const next = pageToken === '' ? 'a' : pageToken === 'a' ? 'b' : 'a';
        return json(res, 200, { list: ITEMS.slice(0, 10), nextPageToken: next });
      }
      if (app === 'endless') return json(res, 200, { list: ITEMS.slice(0, 10), nextPageToken: `p${Number(pageToken.slice(1) || 0) + 1}` });
      if (app === 'null-token') return json(res, 200, { list: ITEMS.slice(0, 10), nextPageToken: null });
      if (app === 'fails-page-2' && pageToken !== '') return json(res, 500, { error: 'boom' });
      const start = pageToken === '' ? 0 : Number(pageToken.slice(4));
      const list = ITEMS.slice(start, start + size);
      const end = start + size >= ITEMS.length;
      return json(res, 200, { list, nextPageToken: end ? '' : `off-${start + size}` });
    }
    return json(res, 404, { error: 'not found' });
  });
  tf = Object.assign(fixture, {
    issued: [] as string[],
    valid: new Set<string>(),
    expiresIn: 3600,
    clockOffset: 0,
    tokenForms: [] as Array<Record<string, string>>,
  });
  return tf;
}
