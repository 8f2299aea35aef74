/**
 * The other mistakes client developers commonly make, beyond issue 45's sixteen, each sent to a real
 * sandbox: the code named, the status and `error` as the unwrapped reference answers, and the sentence
 * naming what was wrong. Then what nothing explains (the sentence says what was checked), and the oracle
 * check over every refusal and console line of the file.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClientAssertion, hmacSign } from '../../src/crypto/index.js';
import { startSandbox } from '../../src/tenant/index.js';
import { sandboxCustomize } from '../../src/sandbox/customize.js';
import { call } from '../reference/support/wire.js';
import { expectNothingSecret, startDiagnosingSandbox, type DiagnosingSandbox } from './support/diagnosing-sandbox.js';
import { BODY, COMPACT, assertionRequest, hmacWebhook, jwtWebhook, tokenForm, type BuildContext, type SentRequest } from './support/mistakes-sent.js';

let sandbox: DiagnosingSandbox;
beforeAll(async () => {
  sandbox = await startDiagnosingSandbox();
});
afterAll(async () => sandbox?.close());

const hmacPath = (c: BuildContext, name: 'hmac' | 'hmacSecond' | 'ipRestricted' | 'inactive' = 'hmac'): string => `/api/v1/webhooks/incoming/${c.tenant.listeners[name].listenerId}`;
const raw = (path: string, method: string, headers: Record<string, string>, body = ''): SentRequest => ({ path, method, headers, body, correct: [] });
/** A signed HMAC webhook with its headers changed after signing (null: removed). */
async function changed(c: BuildContext, headers: Record<string, string | null>, path = hmacPath(c)): Promise<SentRequest> {
  const sent = await hmacWebhook(c, {});
  for (const [name, value] of Object.entries(headers)) {
    if (value === null) delete sent.headers[name];
    else sent.headers[name] = value;
  }
  return { ...sent, path };
}
const withSignature = (sent: SentRequest, signature: string): SentRequest => ({ ...sent, headers: { ...sent.headers, 'webhook-signature': signature } });
const manualMac = (c: BuildContext, sent: SentRequest, hash: string, key: string | undefined): string => {
  const input = `${sent.headers['webhook-timestamp']}.${sent.headers['webhook-event-id']}.${sent.body}`;
  return (key === undefined ? createHash(hash) : createHmac(hash, key)).update(input).digest('base64url');
};
async function token(c: BuildContext): Promise<string> {
  const { clientId, clientSecret } = c.tenant.credentials.primary;
  const answer = await sandbox.send(tokenForm({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }));
  return answer.json.access_token as string;
}
const apps = (headers: Record<string, string>, query = ''): SentRequest => raw(`/api/v1/apps${query}`, 'GET', headers);
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

interface Case {
  code: string;
  says: RegExp;
  build(c: BuildContext): Promise<SentRequest> | SentRequest;
}

const CASES: readonly Case[] = [
  // Webhook requests.
  { code: 'webhook-path-form', says: /no trailing slash/, build: async (c) => ({ ...(await hmacWebhook(c, {})), path: `${hmacPath(c)}/` }) },
  { code: 'listener-id-case', says: /case-sensitive/, build: async (c) => ({ ...(await hmacWebhook(c, {})), path: hmacPath(c).toUpperCase().replace('/API/V1/WEBHOOKS/INCOMING/', '/api/v1/webhooks/incoming/') }) },
  { code: 'listener-unknown', says: /no listener "wh_nope"/, build: async (c) => ({ ...(await hmacWebhook(c, {})), path: '/api/v1/webhooks/incoming/wh_nope' }) },
  { code: 'webhook-method-not-post', says: /POST, not "GET"/, build: (c) => raw(hmacPath(c), 'GET', {}) },
  { code: 'listener-source-address', says: /only from .+; this one came from/, build: async (c) => ({ ...(await hmacWebhook(c, {})), path: hmacPath(c, 'ipRestricted') }) },
  { code: 'webhook-content-type-not-json', says: /"text\/plain"/, build: (c) => changed(c, { 'content-type': 'text/plain' }) },
  { code: 'webhook-header-other-name', says: /"x-webhook-timestamp" but no Webhook-Timestamp/, build: async (c) => changed(c, { 'webhook-timestamp': null, 'x-webhook-timestamp': String(Math.floor(c.now)) }) },
  { code: 'webhook-header-missing', says: /no Webhook-Event-Id header/, build: (c) => changed(c, { 'webhook-event-id': null }) },
  { code: 'hmac-listener-sent-jwt', says: /HMAC signature in Webhook-Signature, not with a JWT/, build: (c) => changed(c, { 'webhook-signature': null, authorization: 'Bearer a.b.c' }) },
  { code: 'timestamp-iso-date', says: /is a date/, build: (c) => changed(c, { 'webhook-timestamp': new Date(c.now * 1000).toISOString() }) },
  { code: 'timestamp-fractional', says: /has a fraction/, build: (c) => changed(c, { 'webhook-timestamp': `${Math.floor(c.now)}.25` }) },
  { code: 'timestamp-micro-or-nanoseconds', says: /in microseconds/, build: (c) => changed(c, { 'webhook-timestamp': String(Math.floor(c.now) * 1_000_000) }) },
  { code: 'timestamp-skew', says: /\d+ s \(\d+ min\) behind the server's time; the bound is 300 s/, build: (c) => changed(c, { 'webhook-timestamp': String(Math.floor(c.now) - 900) }) },
  { code: 'event-id-braces', says: /in braces/, build: (c) => changed(c, { 'webhook-event-id': `{${randomUUID()}}` }) },
  { code: 'event-id-urn', says: /is a URN/, build: (c) => changed(c, { 'webhook-event-id': `urn:uuid:${randomUUID()}` }) },
  { code: 'event-id-no-hyphens', says: /no hyphens/, build: (c) => changed(c, { 'webhook-event-id': randomUUID().replace(/-/g, '') }) },
  { code: 'event-id-uuid-version', says: /version-7 UUID/, build: (c) => changed(c, { 'webhook-event-id': '01890a5d-ac96-774b-bcce-b302099a8057' }) },
  { code: 'event-id-not-uuid', says: /is not a UUID/, build: (c) => changed(c, { 'webhook-event-id': 'evt_123' }) },
  { code: 'webhook-body-not-json', says: /does not parse as JSON/, build: (c) => hmacWebhook(c, { body: 'hello' }, { body: 'hello' }) },
  { code: 'webhook-body-form-encoded', says: /form-encoded/, build: (c) => hmacWebhook(c, { body: 'user=u-1&action=offboard' }, { body: 'user=u-1&action=offboard' }) },
  { code: 'automation-inactive', says: /not published or its trigger is off/, build: async (c) => ({ ...(await hmacWebhook(c, { secret: c.tenant.listeners.inactive.secret })), path: hmacPath(c, 'inactive') }) },
  // HMAC signatures.
  { code: 'hmac-digest-padded', says: /"=" padding/, build: async (c) => { for (;;) { const sent = await hmacWebhook(c, { padded: true }); if (sent.headers['webhook-signature']!.endsWith('=')) return sent; } } },
  { code: 'hmac-digest-prefixed', says: /prefix "sha256="/, build: async (c) => { const sent = await hmacWebhook(c, {}); return withSignature(sent, `sha256=${hmacSign({ secret: c.tenant.listeners.hmac.secret, timestamp: sent.headers['webhook-timestamp']!, eventId: sent.headers['webhook-event-id']!, body: sent.body })}`); } },
  { code: 'hmac-key-other-listener', says: /another listener \(hmacSecond\)/, build: (c) => hmacWebhook(c, { secret: c.tenant.listeners.hmacSecond.secret }) },
  { code: 'hmac-key-client-secret', says: /Client Secret/, build: (c) => hmacWebhook(c, { secret: c.tenant.credentials.primary.clientSecret }) },
  { code: 'hmac-key-decoded-secret', says: /decoded secret.*also written as hex/, build: (c) => hmacWebhook(c, { decodedKey: true, hex: true }) },
  { code: 'hmac-hash-not-sha256', says: /HMAC-SHA-1/, build: async (c) => { const sent = await hmacWebhook(c, {}); return withSignature(sent, manualMac(c, sent, 'sha1', c.tenant.listeners.hmac.secret)); } },
  { code: 'hmac-hash-not-sha256', says: /HMAC-SHA-512/, build: async (c) => { const sent = await hmacWebhook(c, {}); return withSignature(sent, manualMac(c, sent, 'sha512', c.tenant.listeners.hmac.secret)); } },
  { code: 'hmac-plain-hash', says: /plain SHA-256/, build: async (c) => { const sent = await hmacWebhook(c, {}); return withSignature(sent, manualMac(c, sent, 'sha256', undefined)); } },
  { code: 'hmac-parts-other-separator', says: /with ":"/, build: (c) => hmacWebhook(c, { separator: ':' }) },
  { code: 'hmac-parts-missing', says: /was <body> only/, build: (c) => hmacWebhook(c, { order: ['body'] }) },
  { code: 'hmac-parts-missing', says: /was <Webhook-Timestamp>\.<body> only/, build: (c) => hmacWebhook(c, { order: ['timestamp', 'body'] }) },
  { code: 'hmac-body-reserialized', says: /keys sorted/, build: (c) => hmacWebhook(c, { body: JSON.stringify({ action: BODY.action, detail: { at: 1, reason: 'left' }, user: BODY.user }) }) },
  { code: 'hmac-body-reserialized', says: /4 spaces/, build: (c) => hmacWebhook(c, { body: JSON.stringify(BODY, null, 4) }) },
  { code: 'hmac-body-reserialized', says: /json\.dumps/, build: (c) => hmacWebhook(c, { body: '{"user": "u-1", "action": "offboard", "detail": {"reason": "left", "at": 1}}' }) },
  // Webhook JWTs.
  { code: 'jwt-bearer-prefix-missing', says: /bare JWT/, build: async (c) => { const sent = await jwtWebhook(c, () => {}); return { ...sent, headers: { ...sent.headers, authorization: sent.headers.authorization!.slice('Bearer '.length) } }; } },
  { code: 'jwt-listener-sent-hmac', says: /JWT in Authorization/, build: async (c) => { const sent = await jwtWebhook(c, () => {}); const { authorization: _, ...rest } = sent.headers; return { ...sent, headers: { ...rest, 'webhook-signature': 'x' } }; } },
  { code: 'jwt-sub-not-base-url', says: /sub must be the tenant's base URL .+; this one is the string/, build: (c) => jwtWebhook(c, (claims) => void (claims.sub = 'https://example.com')) },
  { code: 'jwt-aud-not-listener-url', says: /an array of 2 audiences/, build: (c) => jwtWebhook(c, (claims) => void (claims.aud = [claims.aud, 'https://other.example'])) },
  { code: 'jwt-aud-not-listener-url', says: /the listener URL with a trailing slash/, build: (c) => jwtWebhook(c, (claims) => void (claims.aud = `${String(claims.aud)}/`)) },
  { code: 'jwt-expired', says: /\d+ s \(\d+ min\) behind the server's time: it has expired/, build: (c) => jwtWebhook(c, (claims) => { claims.exp = Math.floor(c.now) - 600; claims.iat = Math.floor(c.now) - 900; }) },
  { code: 'jwt-nbf-in-future', says: /nbf is \d+ s \(\d+ min\) ahead/, build: (c) => jwtWebhook(c, (claims) => void (claims.nbf = Math.floor(c.now) + 300)) },
  { code: 'jwt-numeric-date-milliseconds', says: /exp is \d+, milliseconds/, build: (c) => jwtWebhook(c, (claims) => void (claims.exp = Math.floor(c.now) * 1000 + 120_000)) },
  { code: 'jwt-numeric-date-form', says: /exp is the string/, build: (c) => jwtWebhook(c, (claims) => void (claims.exp = new Date((c.now + 120) * 1000).toISOString())) },
  { code: 'jwt-claim-missing', says: /lacks htb_s256/, build: (c) => jwtWebhook(c, (claims) => void delete claims.htb_s256) },
  { code: 'jwt-htm-not-post', says: /htm must be "POST"; this one is the string "PUT"/, build: (c) => jwtWebhook(c, (claims) => void (claims.htm = 'PUT')) },
  { code: 'jwt-htb-encoding', says: /written as hex/, build: (c) => jwtWebhook(c, (claims) => void (claims.htb_s256 = createHash('sha256').update(COMPACT).digest('hex'))) },
  { code: 'jwt-htb-not-body-hash', says: /nor the hash of any re-serialisation/, build: (c) => jwtWebhook(c, (claims) => void (claims.htb_s256 = createHash('sha256').update('other').digest('base64url'))) },
  { code: 'jwt-kid-missing', says: /no kid/, build: (c) => jwtWebhook(c, () => {}, { kid: null }) },
  { code: 'jwt-alg-not-allowed', says: /alg "HS256" is not accepted/, build: async (c) => { const sent = await jwtWebhook(c, () => {}); const [h, p] = sent.headers.authorization!.slice(7).split('.'); const header = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(h!, 'base64url').toString()), alg: 'HS256' })).toString('base64url'); return { ...sent, headers: { ...sent.headers, authorization: `Bearer ${header}.${p}.${createHmac('sha256', 'k').update(`${header}.${p}`).digest('base64url')}` } }; } },
  { code: 'jwt-signature-invalid', says: /does not verify with the JWKS key/, build: async (c) => { const sent = await jwtWebhook(c, () => {}); return { ...sent, headers: { ...sent.headers, authorization: `${sent.headers.authorization!.slice(0, -6)}AAAAAA` } }; } },
  { code: 'jwt-malformed', says: /has 2 parts, not 3/, build: async (c) => { const sent = await jwtWebhook(c, () => {}); return { ...sent, headers: { ...sent.headers, authorization: 'Bearer abc.def' } }; } },
  { code: 'jwks-unreachable', says: /could not fetch this listener's JWKS/, build: async (c) => ({ ...(await jwtWebhook(c, () => {})), path: `/api/v1/webhooks/incoming/${c.tenant.listeners.jwtUnreachableJwks.listenerId}` }) },
  // The token endpoint.
  { code: 'token-method-not-post', says: /POST, not "GET"/, build: () => raw('/auth/v1/token', 'GET', {}) },
  { code: 'token-json-body', says: /sent as JSON/, build: (c) => raw('/auth/v1/token', 'POST', { 'content-type': 'application/json' }, JSON.stringify({ grant_type: 'client_credentials', client_id: c.tenant.credentials.primary.clientId })) },
  { code: 'token-grant-type-value', says: /grant_type is "password"/, build: () => tokenForm({ grant_type: 'password' }) },
  { code: 'token-grant-type-value', says: /grant_type is "client-credentials"/, build: () => tokenForm({ grant_type: 'client-credentials' }) },
  { code: 'token-grant-type-missing', says: /this one has "grantType"/, build: () => tokenForm({ grantType: 'client_credentials' }) },
  { code: 'token-parameter-repeated', says: /"client_id" more than once/, build: () => ({ ...tokenForm({}), body: 'grant_type=client_credentials&client_id=a&client_id=b' }) },
  { code: 'token-client-id-missing', says: /no client_id/, build: () => tokenForm({ grant_type: 'client_credentials' }) },
  { code: 'token-two-methods', says: /both client_secret and client_assertion/, build: (c) => tokenForm({ grant_type: 'client_credentials', client_id: c.tenant.credentials.primary.clientId, client_secret: 'x', client_assertion: 'y', client_assertion_type: ASSERTION_TYPE }) },
  { code: 'token-assertion-type', says: /client_assertion_type is "jwt"/, build: (c) => tokenForm({ grant_type: 'client_credentials', client_id: c.tenant.credentials.primary.clientId, client_assertion: 'y', client_assertion_type: 'jwt' }) },
  { code: 'token-secret-other-name', says: /"clientSecret" but no client_secret/, build: (c) => tokenForm({ grant_type: 'client_credentials', client_id: c.tenant.credentials.primary.clientId, clientSecret: c.tenant.credentials.primary.clientSecret }) },
  { code: 'token-secret-other-credential', says: /another credential \(ipRestricted\)/, build: (c) => tokenForm({ grant_type: 'client_credentials', client_id: c.tenant.credentials.primary.clientId, client_secret: c.tenant.credentials.ipRestricted.clientSecret }) },
  { code: 'token-secret-blanks', says: /blanks or a line feed/, build: (c) => tokenForm({ grant_type: 'client_credentials', client_id: c.tenant.credentials.primary.clientId, client_secret: `${c.tenant.credentials.primary.clientSecret}\n` }) },
  { code: 'credential-expired', says: /\(expired\) has expired/, build: (c) => tokenForm({ grant_type: 'client_credentials', client_id: c.tenant.credentials.expired.clientId, client_secret: c.tenant.credentials.expired.clientSecret }) },
  { code: 'assertion-iss-not-client-id', says: /iss must be the client_id/, build: (c) => assertionRequest(c, { iss: 'me' }) },
  { code: 'assertion-expired', says: /behind the server's time: it has expired/, build: (c) => assertionRequest(c, { expIn: -600, nbfIn: -900 }) },
  { code: 'assertion-key-other-credential', says: /key of another credential \(ipRestricted\)/, build: async (c) => { const { clientId } = c.tenant.credentials.primary; const assertion = await buildClientAssertion({ clientId, clientSecret: c.tenant.credentials.ipRestricted.clientSecret, audience: c.tenant.tenantDomain, now: Math.floor(c.now) }); return tokenForm({ grant_type: 'client_credentials', client_id: clientId, client_assertion_type: ASSERTION_TYPE, client_assertion: assertion }); } },
  { code: 'assertion-exp-missing', says: /has no exp/, build: (c) => assertionRequest(c, { expIn: null }) },
  // The API's bearer token.
  { code: 'bearer-token-in-query', says: /query string/, build: async (c) => apps({}, `?access_token=${await token(c)}`) },
  { code: 'bearer-token-other-header', says: /header "x-api-key"/, build: async (c) => apps({ 'x-api-key': await token(c) }) },
  { code: 'bearer-missing', says: /no access token/, build: () => apps({}) },
  { code: 'bearer-prefix-missing', says: /bare token/, build: async (c) => apps({ authorization: await token(c) }) },
  { code: 'bearer-basic-auth', says: /is Basic/, build: () => apps({ authorization: 'Basic dTpw' }) },
  { code: 'bearer-scheme-other', says: /scheme "Token"/, build: async (c) => apps({ authorization: `Token ${await token(c)}` }) },
  { code: 'bearer-client-secret', says: /is a Client Secret/, build: (c) => apps({ authorization: `Bearer ${c.tenant.credentials.primary.clientSecret}` }) },
  { code: 'bearer-jwt', says: /is a JWT/, build: async (c) => { const assertion = await buildClientAssertion({ clientId: c.tenant.credentials.primary.clientId, clientSecret: c.tenant.credentials.primary.clientSecret, audience: c.tenant.tenantDomain, now: Math.floor(c.now) }); return apps({ authorization: `Bearer ${assertion}` }); } },
];

describe('other common mistakes, each named', () => {
  for (const [index, mistake] of CASES.entries()) {
    it(`${mistake.code} (${index + 1})`, async () => {
      const request = await mistake.build(await sandbox.context());
      const today = await sandbox.unwrapped(request);
      const answer = await sandbox.send(request);
      expect(answer.status).toBe(today.status);
      expect(answer.json.error).toBe(today.error);
      expect(answer.json.mistake, answer.json.error_description).toBe(mistake.code);
      expect(answer.json.error_description).toMatch(mistake.says);
    });
  }

  it('a credential where the scheme goes (a bare Client Secret, "Bearer:<token>") is never echoed, not even cut short', async () => {
    const c = await sandbox.context();
    const issued = await token(c);
    for (const authorization of [c.tenant.credentials.primary.clientSecret, `Bearer:${issued}`]) {
      const answer = await sandbox.send(apps({ authorization }));
      expect(answer.status).toBe(401);
      const body = JSON.stringify(answer.json);
      expect(body).not.toContain(c.tenant.credentials.primary.clientSecret.split(':').at(-1)!.slice(0, 16));
      expect(body).not.toContain(issued.slice(0, 16));
    }
    expectNothingSecret(sandbox, [issued]);
  });

  it('a reused event ID: 409, named', async () => {
    const sent = await hmacWebhook(await sandbox.context(), {});
    expect((await sandbox.send(sent)).status).toBe(200);
    const again = await sandbox.send(sent);
    expect([again.status, again.json.error, again.json.mistake]).toEqual([409, 'duplicate_event', 'event-id-reused']);
  });

  it('an expired access token, and one from another tenant', async () => {
    const c = await sandbox.context();
    const mine = await token(c);
    // Another sandbox of the same process: its token is recognised as another tenant's.
    const other = await startSandbox({ seed: 'other-tenant', logger: () => {}, customize: sandboxCustomize(undefined, {}) });
    try {
      const { clientId, clientSecret } = other.tenant.credentials.primary;
      const theirs = await call(`${other.baseUrl}/auth/v1/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString() });
      const foreign = await sandbox.send(apps({ authorization: `Bearer ${theirs.json.access_token}` }));
      expect([foreign.status, foreign.json.error, foreign.json.mistake]).toEqual([401, 'invalid_token', 'bearer-token-other-tenant']);
      expect(foreign.json.error_description).toContain(other.baseUrl);
      sandbox.correct.push(theirs.json.access_token);
    } finally {
      await other.close();
    }
    await sandbox.box.advance(3700);
    const expired = await sandbox.send(apps({ authorization: `Bearer ${mine}` }));
    expect([expired.status, expired.json.error, expired.json.mistake]).toEqual([401, 'invalid_token', 'bearer-token-expired']);
    expect(expired.json.error_description).toMatch(/\d+ s( \(\d+ min\))? behind the server's time/);
    sandbox.correct.push(mine);
  });
});

describe('what nothing explains', () => {
  it('a signature no transformation makes: "unexplained", saying what was checked and the rule', async () => {
    const sent = withSignature(await hmacWebhook(await sandbox.context(), {}), createHash('sha256').update(randomUUID()).digest('base64url'));
    const answer = await sandbox.send(sent);
    expect([answer.status, answer.json.error, answer.json.mistake]).toEqual([401, 'unauthorized', 'unexplained']);
    expect(answer.json.error_description).toMatch(/^signature mismatch, and no known mistake explains it \(checked: hex; padding; .*re-serialised bodies.*\): sign <Webhook-Timestamp>\.<Webhook-Event-Id>\.<raw body> with HMAC-SHA256/);
  });

  it('a refusal outside the catalogue (an unknown app) keeps the reference answer as it is', async () => {
    const c = await sandbox.context();
    const answer = await sandbox.send(raw(`/api/v1/apps/${c.tenant.apps.missingAppId}/ownerids`, 'GET', { authorization: `Bearer ${await token(c)}` }));
    expect(answer.status).toBe(404);
    expect(answer.json.mistake).toBeUndefined();
    expect(Object.keys(answer.json)).toEqual(['error', 'error_description']);
    const nowhere = await sandbox.send(raw('/api/v2/nothing', 'GET', {}));
    expect([nowhere.status, Object.keys(nowhere.json)]).toEqual([404, ['error', 'error_description']]);
  });

  it('nothing secret in any refusal or console line of this file', () => {
    expectNothingSecret(sandbox);
  });
});
