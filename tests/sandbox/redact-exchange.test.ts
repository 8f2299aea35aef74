/**
 * What the inspector shows of a request (issue 45): every secret a placeholder (the secret headers, the
 * secret fields of a form, a JSON body or the query, any JWT, every tenant secret wherever pasted, raw or
 * percent-encoded), bodies cut at 4 KiB only after that (so no secret's first bytes survive a cut), and a
 * curl command that, run by bash with the placeholders' variables set, sends exactly the bytes that arrived.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { SandboxExchange } from '../../src/sandbox/exchange.js';
import { piecesText, redactExchange, SHOWN_EXCHANGE_BYTES, type NamedSecret } from '../../src/sandbox/redact-exchange.js';
import { curlCommand, placeholdersOf } from '../../src/sandbox/reproduce.js';
import { tenantSecrets } from '../../src/sandbox/tenant-secrets.js';
import { generateTenant } from '../../src/tenant/generate.js';

const CLIENT_SECRET = 'secret-token:conductorone.com:v1:eyJrdHkiOiJPS1AiLCJjcnYiOiJFZDI1NTE5In0';
const HMAC_SECRET = 'hmacSecretValue_0123456789abcdefABCDEF';
const SECRETS: NamedSecret[] = [
  { name: 'CLIENT_SECRET', value: CLIENT_SECRET },
  { name: 'HMAC_SECRET', value: HMAC_SECRET },
];
const JWT = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlX2J5dGVz';

function exchange(over: Partial<SandboxExchange> & { body?: string }): SandboxExchange {
  return {
    at: 0,
    method: 'POST',
    target: '/auth/v1/token',
    requestHeaders: {},
    requestBody: Buffer.from(over.body ?? ''),
    status: 401,
    responseBody: '{}',
    durationMs: 1,
    ...over,
  };
}

function shown(e: SandboxExchange): string {
  const r = redactExchange(e, SECRETS);
  return [piecesText(r.target), ...r.headers.map(([n, v]) => `${n}: ${piecesText(v)}`), piecesText(r.body), piecesText(r.responseBody)].join('\n');
}

describe('redactExchange', () => {
  it('replaces the secret headers, keeping the scheme of Authorization, named by where it was sent', () => {
    const headers = (target: string, authorization: string): string =>
      shown(exchange({ target, requestHeaders: { authorization, 'webhook-signature': 'c2lnbmF0dXJl', cookie: 'a=b', 'x-ok': 'visible' } }));
    expect(headers('/api/v1/apps', 'Bearer abc.def')).toContain('authorization: Bearer [ACCESS_TOKEN]');
    expect(headers('/api/v1/webhooks/incoming/wh_A', `Bearer ${JWT}`)).toContain('authorization: Bearer [WEBHOOK_JWT]');
    expect(headers('/__hooks/v1/clock', 'Bearer tok')).toContain('authorization: Bearer [HOOKS_TOKEN]');
    const basic = headers('/auth/v1/token', 'Basic Y2xpZW50OnNlY3JldA==');
    expect(basic).toContain('authorization: Basic [BASIC_CREDENTIALS]');
    expect(basic).toContain('webhook-signature: [WEBHOOK_SIGNATURE]');
    expect(basic).toContain('cookie: [COOKIE]');
    expect(basic).toContain('x-ok: visible');
    expect(basic).not.toMatch(/Y2xpZW50|c2lnbmF0dXJl|a=b/);
  });

  it('replaces the secret fields of a form body, a JSON body and the query, whatever the content type says', () => {
    const form = shown(exchange({ body: `grant_type=client_credentials&client%5Fsecret=${encodeURIComponent('not-the-tenant-secret')}&client_assertion=${JWT}&client_id=abc` }));
    expect(form).toContain('grant_type=client_credentials&client%5Fsecret=[CLIENT_SECRET]&client_assertion=[CLIENT_ASSERTION]&client_id=abc');
    const json = shown(exchange({ body: '{"client_id":"abc","client_secret" : "x\\"y\\\\z","nested":{"access_token":"opaque"}}' }));
    expect(json).toContain('{"client_id":"abc","client_secret" : "[CLIENT_SECRET]","nested":{"access_token":"[ACCESS_TOKEN]"}}');
    expect(shown(exchange({ target: '/auth/v1/token?client_secret=opaque&x=1' }))).toContain('/auth/v1/token?client_secret=[CLIENT_SECRET]&x=1');
  });

  it('replaces any JWT and every tenant secret wherever it was pasted, raw or percent-encoded', () => {
    const text = shown(
      exchange({
        target: `/api/v1/apps?note=${encodeURIComponent(CLIENT_SECRET)}`,
        requestHeaders: { 'x-note': `key=${HMAC_SECRET};` },
        body: `{"memo":"${HMAC_SECRET}","token":"${JWT}","lower":"${encodeURIComponent(CLIENT_SECRET).replace(/%3A/g, '%3a')}"}`,
        responseBody: `{"echo":"${CLIENT_SECRET}"}`,
      }),
    );
    for (const secret of [CLIENT_SECRET, encodeURIComponent(CLIENT_SECRET), encodeURIComponent(CLIENT_SECRET).replace(/%3A/g, '%3a'), HMAC_SECRET, JWT]) expect(text).not.toContain(secret);
    expect(text).toContain('note=[CLIENT_SECRET_URLENCODED]');
    expect(text).toContain('x-note: key=[HMAC_SECRET];');
    expect(text).toContain('{"memo":"[HMAC_SECRET]","token":"[ACCESS_TOKEN]","lower":"[CLIENT_SECRET_URLENCODED]"}');
    expect(text).toContain('{"echo":"[CLIENT_SECRET]"}');
  });

  it('cuts a body at 4 KiB after redacting it: a secret across the cut leaves no prefix behind', () => {
    for (const offset of [1, 8, 20, HMAC_SECRET.length - 1]) {
      const body = `${'a'.repeat(SHOWN_EXCHANGE_BYTES - offset)}${HMAC_SECRET}${'b'.repeat(100)}`;
      const r = redactExchange(exchange({ body }), SECRETS);
      const text = piecesText(r.body);
      expect(text).not.toContain(HMAC_SECRET.slice(0, Math.min(offset, 8)));
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(SHOWN_EXCHANGE_BYTES + '[HMAC_SECRET]'.length);
      expect(r.bodyMoreBytes).toBeGreaterThan(0);
    }
    const whole = redactExchange(exchange({ body: 'x'.repeat(SHOWN_EXCHANGE_BYTES) }), SECRETS);
    expect(whole.bodyMoreBytes).toBe(0);
  });
});

describe('the reproducing command', () => {
  it('run by bash with the variables set, sends exactly the bytes that arrived; the secrets are not in it', () => {
    const body = `grant_type=client_credentials&client_id=a'b&client_secret=${encodeURIComponent(CLIENT_SECRET)}&note=$(touch /tmp/pwned)\`id\`\u0001`;
    const e = exchange({ target: "/auth/v1/token?q='x'", requestHeaders: { host: 'h', 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic dXNlcjpwYXNz', 'x-quote': `it's "$HOME"` }, body });
    const redacted = redactExchange(e, SECRETS);
    const command = curlCommand('POST', redacted, { baseUrl: 'http://127.0.0.1:1' });
    expect(command).not.toContain(CLIENT_SECRET);
    expect(command).not.toContain('dXNlcjpwYXNz');
    expect(placeholdersOf(redacted.target, ...redacted.headers.map(([, v]) => v), redacted.body)).toEqual(['BASIC_CREDENTIALS', 'CLIENT_SECRET']);
    // curl replaced by a function that prints its arguments, one per NUL-terminated record.
    const args = execFileSync('bash', ['-c', `curl() { printf '%s\\0' "$@"; }; ${command}`], {
      env: { PATH: process.env.PATH ?? '', CLIENT_SECRET: encodeURIComponent(CLIENT_SECRET), BASIC_CREDENTIALS: 'dXNlcjpwYXNz', HOME: '/nowhere' },
    })
      .toString('utf8')
      .split('\0')
      .slice(0, -1);
    expect(args).toEqual([
      '-sS',
      '-X',
      'POST',
      "http://127.0.0.1:1/auth/v1/token?q='x'",
      '-H',
      'content-type: application/x-www-form-urlencoded',
      '-H',
      'authorization: Basic dXNlcjpwYXNz',
      '-H',
      `x-quote: it's "$HOME"`,
      '--data-binary',
      body,
    ]);
  });
});

describe('tenantSecrets', () => {
  it('names every secret of a generated tenant: Client Secrets, HMAC secrets, the hooks token, private key parts', async () => {
    const tenant = await generateTenant({ seed: 'tenant-secrets', host: '127.0.0.1', port: 1, hooks: true });
    const secrets = tenantSecrets(tenant);
    const values = new Set(secrets.map((s) => s.value));
    for (const credential of Object.values(tenant.credentials)) expect(values.has(credential.clientSecret)).toBe(true);
    expect(values.has(tenant.listeners.hmac.secret)).toBe(true);
    expect(values.has(tenant.listeners.hmacSecond.secret)).toBe(true);
    expect(values.has(tenant.hooks.token)).toBe(true);
    for (const key of tenant.listeners.jwt.signingKeys) expect(values.has((key as unknown as { d: string }).d)).toBe(true);
    expect(secrets.find((s) => s.value === tenant.credentials.primary.clientSecret)?.name).toBe('CLIENT_SECRET');
    expect(secrets.find((s) => s.value === tenant.listeners.hmacSecond.secret)?.name).toBe('HMAC_SECOND_SECRET');
    // Longest first, so a secret holding another is replaced whole.
    expect(secrets.map((s) => s.value.length)).toEqual([...secrets.map((s) => s.value.length)].sort((a, b) => b - a));
  }, 60_000);
});
