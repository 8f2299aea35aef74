/**
 * Redaction proof: every kind of secret is planted in a run against an echoing fixture (so secrets come
 * back in response bodies and headers too), then every stored exchange is searched for each secret and
 * for its base64 and base64url forms. None may appear.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecorder, createTargetClient, Redactor, REDACTED } from '../../src/client/index.js';
import type { TargetClient } from '../../src/client/types.js';
import { parseClientSecret, privateJwkValues } from '../../src/crypto/index.js';
import { isHarnessError } from '../../src/errors.js';
import { json, makeProfile, makeSecrets, startFixture, type Fixture, type TestSecrets } from './support/fixtures.js';

/** A path the client may POST to (a webhook listener's, outbound.ts): the fixture echoes any path. */
const ECHO = '/api/v1/webhooks/incoming/echo';

let secrets: TestSecrets;
let fixture: Fixture;
let client: TargetClient;
/** Values that reached the fixture server (so they were really used) and must never be stored. */
const planted = new Map<string, string>();
const ISSUED_TOKEN = 'srv-token-Zq8pL2mN4vX7rT1k';

function forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [secret, bytes.toString('base64'), bytes.toString('base64').replace(/=+$/, ''), bytes.toString('base64url'), encodeURIComponent(secret)];
}

beforeAll(async () => {
  secrets = await makeSecrets();
  fixture = await startFixture((req, res, body) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (path === '/auth/v1/token') {
      return json(res, 200, { access_token: ISSUED_TOKEN, token_type: 'Bearer', expires_in: 3600, refresh_token: 'srv-refresh-Hj3kL9' });
    }
    if (path.startsWith('/__hooks/v1/clock')) return json(res, 200, { now: Date.now() / 1000 });
    // Everything else echoes what it got: headers, URL and body, in the body and in a header.
    const echo = { url: req.url, headers: req.headers, body: body.toString('utf8') };
    const text = JSON.stringify(echo);
    res.writeHead(200, { 'content-type': 'application/json', 'x-echo-auth': String(req.headers.authorization ?? ''), 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
  const profile = makeProfile(fixture.url, secrets);
  // A small body bound, so truncation cuts through secrets too.
  client = createTargetClient(profile, { recordBodyBytes: 700 });
});

afterAll(async () => {
  await client.close();
  await fixture.close();
});

describe('redaction', () => {
  it('no secret, token, assertion or JWT reaches a stored exchange in any encoding', async () => {
    planted.set('client secret', secrets.clientSecret);
    planted.set('client secret JWK text', parseClientSecret(secrets.clientSecret).encodedJwk);
    planted.set('client secret d', String(parseClientSecret(secrets.clientSecret).privateJwk.d));
    planted.set('HMAC secret', secrets.hmacSecret);
    planted.set('hooks token', secrets.hooksToken);
    secrets.jwtKeys.forEach((key) => privateJwkValues(key).forEach((value, i) => planted.set(`JWK ${key.kid} private ${i}`, value)));
    planted.set('issued token', ISSUED_TOKEN);
    planted.set('refresh token', 'srv-refresh-Hj3kL9');

    // Both grant methods (the assertion is captured from what the server got).
    await client.requestToken({ method: 'secret' });
    await client.requestToken({ method: 'secret', asJson: true });
    await client.requestToken({ method: 'assertion' });
    const assertionForm = new URLSearchParams(fixture.received.at(-1)?.body.toString() ?? '');
    planted.set('client assertion', assertionForm.get('client_assertion') ?? 'missing');
    // API calls with the default token (echoed back in the body and a header).
    await client.ownerIds('app-1');
    await client.walkEntitlements('app-1', { maxPages: 1 }).catch(() => undefined);
    // Webhooks: HMAC (secret used as key) and JWT with each alg.
    await client.sendWebhook('hmac');
    await client.sendWebhook('hmac', { hmac: { secret: 'override-hmac-secret-123' } });
    planted.set('override HMAC secret', 'override-hmac-secret-123');
    for (const alg of ['EdDSA', 'ES256', 'RS256'] as const) {
      await client.sendWebhook('jwt', { jwt: { alg } });
      planted.set(`webhook JWT ${alg}`, String(fixture.received.at(-1)?.headers.authorization).replace('Bearer ', ''));
    }
    // Hooks (token in Authorization).
    await client.now();
    // Secrets planted by hand in URL, headers and bodies, in several encodings, some at odd offsets.
    await client.request({
      method: 'POST',
      url: `${ECHO}?hmac=${encodeURIComponent(secrets.hmacSecret)}&client_secret=${encodeURIComponent(secrets.clientSecret)}`,
      headers: {
        authorization: `Basic ${Buffer.from(`brave-otter-1@tenant.test/conformance:${secrets.clientSecret}`).toString('base64')}`,
        'x-trace': `a${Buffer.from(`xy${secrets.hooksToken}`).toString('base64url')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ all: [...planted.values()], wrapped: Buffer.from(`!${secrets.hmacSecret}?`).toString('base64') }),
    });
    // A long body so the recorded text is cut right through a secret.
    const padding = 'p'.repeat(690);
    await client.request({ method: 'POST', url: ECHO, body: `${padding}${secrets.clientSecret}` });
    // A transport error message goes through redaction too, and so does a refusal's (another origin).
    for (const url of [`${fixture.url.replace(/:\d+$/, ':1')}/${secrets.hmacSecret}`, `/${secrets.hmacSecret}/gone`]) {
      const error = await client.request({ method: url.startsWith('/') ? 'DELETE' : 'GET', url, timeoutMs: 2000 }).then(() => undefined, (caught: unknown) => caught);
      expect(isHarnessError(error)).toBe(true);
      expect(String((error as Error).message)).toMatch(/REQUEST_REFUSED|was not sent/);
      expect(String((error as Error).message)).not.toContain(secrets.hmacSecret);
    }

    // The planted values were really sent (otherwise the search proves nothing).
    expect(fixture.received.some((r) => r.body.toString().includes(secrets.clientSecret))).toBe(true);
    expect(planted.get('client assertion')).toMatch(/^eyJ/);

    const stored = JSON.stringify(client.recorder.all());
    expect(stored).toContain(REDACTED);
    const leaks: string[] = [];
    for (const [what, secret] of planted) {
      for (const form of forms(secret)) if (form.length >= 8 && stored.includes(form)) leaks.push(`${what} (${form.slice(0, 6)}…)`);
    }
    expect(leaks).toEqual([]);
    // The Authorization scheme stays readable.
    const authorizations = client.recorder.all().map((e) => e.request.headers.authorization).filter(Boolean);
    expect(authorizations).toContain('Bearer [REDACTED]');
    expect(authorizations).toContain('Basic [REDACTED]');
  });

  it('redact() catches a secret embedded at any offset of a base64 value', () => {
    const secret = 'my-very-secret-value-42';
    const redactor = new Redactor([secret]);
    for (const prefix of ['', 'a', 'ab', 'abc']) {
      for (const suffix of ['', 'z', 'zz']) {
        const encoded = Buffer.from(`${prefix}${secret}${suffix}`).toString('base64');
        const out = redactor.redact(`value=${encoded}`);
        expect(out).toContain(REDACTED);
        const decoded = Buffer.from(out.replace('value=', '').replace(REDACTED, ''), 'base64').toString('latin1');
        expect(decoded).not.toContain('secret-value');
      }
    }
  });

  it('a shared recorder keeps the profile secrets and bounds its size', async () => {
    const recorder = createRecorder({ secrets: ['a-shared-secret-1'], maxExchanges: 5 });
    const c = createTargetClient(makeProfile(fixture.url, secrets, { hooks: undefined }), { recorder });
    for (let i = 0; i < 12; i += 1) await c.request({ method: 'POST', url: ECHO, body: `n=${i} a-shared-secret-1 ${secrets.hmacSecret}` });
    const all = recorder.all();
    expect(all.length).toBeLessThanOrEqual(12);
    expect(all.at(-1)?.seq).toBe(12);
    expect(recorder.since(10).map((e) => e.seq)).toEqual([11, 12]);
    const text = JSON.stringify(all);
    expect(text).not.toContain('a-shared-secret-1');
    expect(text).not.toContain(secrets.hmacSecret);
    await c.close();
  });
});

describe('Authorization values', () => {
  it('keep the scheme, drop the credential, and keep a bare scheme', () => {
    const redactor = new Redactor([]);
    expect(redactor.redactCredentialHeader('Bearer abc.def')).toBe('Bearer [REDACTED]');
    expect(redactor.redactCredentialHeader('Basic  dXNlcjpwYXNz')).toBe('Basic  [REDACTED]');
    expect(redactor.redactCredentialHeader('Bearer ')).toBe('Bearer ');
    expect(redactor.redactCredentialHeader('bearer')).toBe('bearer');
    expect(redactor.redactCredentialHeader('some-raw-token-without-scheme')).toBe('[REDACTED]');
    expect(redactor.redactCredentialHeader('')).toBe('');
  });
});

describe('redact()', () => {
  it('applies the same rules with a plain secrets list', async () => {
    const { redact } = await import('../../src/index.js');
    const list = ['plain-secret-0123'];
    expect(redact(`x plain-secret-0123 y ${Buffer.from('plain-secret-0123').toString('base64')}`, list)).toBe('x [REDACTED] y [REDACTED]');
    expect(redact('access_token=abcdef&x=1', list)).toBe('access_token=[REDACTED]&x=1');
    expect(redact('{"client_secret": "zzzz"}', list)).toBe('{"client_secret": "[REDACTED]"}');
  });
});
