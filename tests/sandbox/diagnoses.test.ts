/**
 * Issue 45's sixteen client mistakes sent to a real sandbox on 127.0.0.1 (startSandbox with the
 * diagnosing wrapper, as `serve` runs it): each keeps the status and `error` the reference gives (asked of
 * the same reference, unwrapped), gets its `mistake` code and `error_uri`, and a sentence saying what the
 * issue's last column says. Correct requests still get 200. No answer and no console line carries a
 * secret, key material or the correct signature.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClientAssertion, buildWebhookClaims, signWebhookJwt } from '../../src/crypto/index.js';
import { listFaults } from '../../src/faults/index.js';
import { MISTAKES } from '../../src/sandbox/mistakes/index.js';
import { call } from '../reference/support/wire.js';
import { expectNothingSecret, startDiagnosingSandbox, type DiagnosingSandbox } from './support/diagnosing-sandbox.js';
import { SIXTEEN, correctSignatures, tokenForm } from './support/mistakes-sent.js';

let sandbox: DiagnosingSandbox;
beforeAll(async () => {
  sandbox = await startDiagnosingSandbox();
});
afterAll(async () => sandbox?.close());

const context = () => sandbox.context();
const send = (...args: Parameters<DiagnosingSandbox['send']>) => sandbox.send(...args);
const unwrapped = (...args: Parameters<DiagnosingSandbox['unwrapped']>) => sandbox.unwrapped(...args);

describe('the sixteen mistakes of issue 45, each named', () => {
  for (const mistake of SIXTEEN) {
    it(`${mistake.n}. ${mistake.what}`, async () => {
      const request = await mistake.build(await context());
      const today = await unwrapped(request);
      const answer = await send(request);
      expect(answer.status).toBe(mistake.status);
      expect(answer.status).toBe(today.status);
      expect(answer.json.error).toBe(mistake.error);
      expect(answer.json.error).toBe(today.error);
      for (const [name, value] of Object.entries(today.headers)) if (name !== 'content-length') expect(answer.headers.get(name)).toBe(value);
      expect(answer.json.mistake).toBe(mistake.mistake);
      expect(answer.json.error_uri).toBe(`docs/sandbox.md#${answer.json.mistake}`);
      for (const says of mistake.says) expect(answer.json.error_description).toMatch(says);
    });
  }
});

describe('correct requests pass untouched', () => {
  it('an HMAC webhook, a JWT webhook, both token grants and an API call get 200 with no diagnosis', async () => {
    const c = await context();
    const { tenant } = c;
    const timestamp = String(Math.floor(c.now));
    const eventId = randomUUID();
    const body = '{"ok":true}';
    const [signature] = correctSignatures(tenant.listeners.hmac.secret, timestamp, eventId, body);
    const hmac = await send({ path: `/api/v1/webhooks/incoming/${tenant.listeners.hmac.listenerId}`, method: 'POST', headers: { 'content-type': 'application/json', 'webhook-timestamp': timestamp, 'webhook-event-id': eventId, 'webhook-signature': signature! }, body, correct: [] });
    expect(hmac.status).toBe(200);
    expect(hmac.json.mistake).toBeUndefined();

    const jwtEvent = randomUUID();
    const claims = buildWebhookClaims({ baseUrl: tenant.baseUrl, webhookUrl: `${tenant.baseUrl}/api/v1/webhooks/incoming/${tenant.listeners.jwt.listenerId}`, eventId: jwtEvent, body: Buffer.from(body), now: Math.floor(c.now) });
    const jwt = await signWebhookJwt({ key: tenant.listeners.jwt.signingKeys[0]!, claims });
    const viaJwt = await send({ path: `/api/v1/webhooks/incoming/${tenant.listeners.jwt.listenerId}`, method: 'POST', headers: { 'content-type': 'application/json', 'webhook-timestamp': timestamp, 'webhook-event-id': jwtEvent, authorization: `Bearer ${jwt}` }, body, correct: [] });
    expect(viaJwt.status).toBe(200);

    const { clientId, clientSecret } = tenant.credentials.primary;
    const bySecret = await send(tokenForm({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }));
    expect(bySecret.status).toBe(200);
    const assertion = await buildClientAssertion({ clientId, clientSecret, audience: tenant.tenantDomain, now: Math.floor(c.now) });
    const byAssertion = await send(tokenForm({ grant_type: 'client_credentials', client_id: clientId, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion }));
    expect(byAssertion.status).toBe(200);
    const apps = await call(`${sandbox.box.baseUrl}/api/v1/apps`, { headers: { authorization: `Bearer ${bySecret.json.access_token}` } });
    expect(apps.status).toBe(200);
    sandbox.correct.push(bySecret.json.access_token, byAssertion.json.access_token);
  });
});

describe('never the answer', () => {
  it('no answer and no console line holds a secret, key material, a token or a correct signature', () => {
    expect(sandbox.printed.length).toBeGreaterThanOrEqual(SIXTEEN.length);
    expectNothingSecret(sandbox);
  });

  it('the console printed each refusal with its diagnosis, escaped', () => {
    const { printed } = sandbox;
    for (const mistake of SIXTEEN) expect(printed.some((line) => line.includes(` ${mistake.status} ${String(mistake.mistake)}: `))).toBe(true);
    for (const line of printed) expect(line).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z (GET|POST) \/\S* /);
  });
});

describe('the catalogue', () => {
  it('no mistake code is a fault name', () => {
    const faults = new Set(listFaults().map((fault) => fault.name));
    expect(faults.size).toBeGreaterThan(50);
    expect(MISTAKES.map((m) => m.code).filter((code) => faults.has(code))).toEqual([]);
  });
});
