/** Token endpoint (service.md §4.1, §5.3; rulings 3–5, 7) over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEd25519Jwk } from '../../src/crypto/ed25519.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { call, clientAssertion, type Jwk, type WireResponse } from './support/wire.js';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => t?.close());

function form(fields: Record<string, string>, headers: Record<string, string> = {}): Promise<WireResponse> {
  return call(`${t.baseUrl}/auth/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

const secretFields = (key: 'primary' | 'ipRestricted' | 'expired' = 'primary') => ({
  grant_type: 'client_credentials',
  client_id: t.profile.credentials[key].clientId,
  client_secret: t.profile.credentials[key].clientSecret,
});

async function assertionFields(options: Parameters<typeof clientAssertion>[4] = {}, aud: unknown = undefined) {
  const { clientId, clientSecret } = t.profile.credentials.primary;
  const now = Math.floor(await t.clock());
  return {
    grant_type: 'client_credentials',
    client_assertion_type: ASSERTION_TYPE,
    client_id: clientId,
    client_assertion: clientAssertion(clientId, clientSecret, aud ?? t.profile.tenantDomain, now, options),
  };
}

function expectToken(response: WireResponse): void {
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(typeof response.json.access_token).toBe('string');
  expect(response.json.access_token.length).toBeGreaterThan(0);
  expect(response.json.token_type).toBe('Bearer');
  expect(Number.isInteger(response.json.expires_in) && response.json.expires_in > 0).toBe(true);
}

function expectRefused(response: WireResponse, status: number, error: string): void {
  expect(response.status).toBe(status);
  expect(response.json?.error).toBe(error);
  expect(response.json?.access_token).toBeUndefined();
  expect(response.headers.get('cache-control')).toBe('no-store');
}

describe('secret method', () => {
  it('issues a bearer token', async () => expectToken(await form(secretFields())));
  it('accepts a Content-Type with a charset', async () =>
    expectToken(await form(secretFields(), { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' })));
  it('refuses a wrong secret, an unknown client and no authentication with 401 invalid_client', async () => {
    expectRefused(await form({ ...secretFields(), client_secret: t.profile.credentials.ipRestricted.clientSecret }), 401, 'invalid_client');
    expectRefused(await form({ ...secretFields(), client_id: 'nobody@127.0.0.1/x' }), 401, 'invalid_client');
    expectRefused(await form({ grant_type: 'client_credentials', client_id: t.profile.credentials.primary.clientId }), 401, 'invalid_client');
  });
  it('refuses a JSON body with 400 invalid_request', async () => {
    const response = await call(`${t.baseUrl}/auth/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(secretFields()),
    });
    expectRefused(response, 400, 'invalid_request');
  });
  it('refuses credentials in a Basic Authorization header', async () => {
    const { clientId, clientSecret } = t.profile.credentials.primary;
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
    expectRefused(await form({ grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` }), 400, 'invalid_request');
  });
  it('refuses missing or unsupported grant types and repeated parameters with 400', async () => {
    const { grant_type: _g, ...noGrant } = secretFields();
    expectRefused(await form(noGrant), 400, 'invalid_request');
    expectRefused(await form({ ...secretFields(), grant_type: 'password' }), 400, 'unsupported_grant_type');
    const repeated = `${new URLSearchParams(secretFields()).toString()}&grant_type=client_credentials`;
    const response = await call(`${t.baseUrl}/auth/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: repeated,
    });
    expectRefused(response, 400, 'invalid_request');
  });
  it('refuses both methods at once', async () => {
    const fields = await assertionFields();
    expectRefused(await form({ ...fields, client_secret: t.profile.credentials.primary.clientSecret }), 400, 'invalid_request');
  });
  it('gives no token to an expired credential or one used outside its CIDRs', async () => {
    expectRefused(await form(secretFields('expired')), 401, 'invalid_client');
    expectRefused(await form(secretFields('ipRestricted')), 401, 'invalid_client');
  });
  it('answers 405 to GET', async () => {
    expect((await call(`${t.baseUrl}/auth/v1/token`)).status).toBe(405);
  });
});

describe('assertion method (ruling 3)', () => {
  it('accepts aud as a string and as a one-element array, with typ, kid and nonce', async () => {
    expectToken(await form(await assertionFields()));
    expectToken(await form(await assertionFields({}, [t.profile.tenantDomain])));
    expectToken(await form(await assertionFields({ header: { typ: 'JWT', kid: 'whatever', nonce: 'n-1' } })));
    expectToken(await form(await assertionFields({ claims: { nbf: undefined, iat: undefined } })));
  });
  it('refuses every broken assertion with 401 invalid_client', async () => {
    const now = Math.floor(await t.clock());
    const other = newEd25519Jwk() as Jwk;
    const { clientId } = t.profile.credentials.primary;
    const cases: Array<[string, Parameters<typeof clientAssertion>[4], unknown?]> = [
      ['no exp', { claims: { exp: undefined } }],
      ['exp 10 min ahead', { claims: { exp: now + 600 } }],
      ['exp in the past', { claims: { exp: now - 60, nbf: now - 300 } }],
      ['wrong aud', {}, 'other.example.com'],
      ['aud with scheme', {}, `https://${t.profile.tenantDomain}`],
      ['two-element aud', {}, [t.profile.tenantDomain, 'other.example.com']],
      ['iss not the client', { claims: { iss: 'someone@127.0.0.1/x' } }],
      ['sub not the client', { claims: { sub: 'someone@127.0.0.1/x' } }],
      ['another key', { key: other }],
      ['alg none', { header: { alg: 'none' } }],
    ];
    for (const [label, overrides, aud] of cases) {
      const fields = await assertionFields(overrides, aud);
      const response = await form(fields);
      expect({ label, status: response.status, error: response.json?.error }).toEqual({ label, status: 401, error: 'invalid_client' });
    }
    // An assertion for another client ID than the one named in the form.
    const fields = await assertionFields();
    expectRefused(await form({ ...fields, client_id: t.profile.credentials.ipRestricted.clientId }), 401, 'invalid_client');
    expect(clientId).toContain('@');
  });
  it('requires the assertion type', async () => {
    const fields = await assertionFields();
    expectRefused(await form({ ...fields, client_assertion_type: 'urn:other' }), 400, 'invalid_request');
  });
});
