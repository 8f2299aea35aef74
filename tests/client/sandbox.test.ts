/**
 * The client against the reference implementation (src/tenant startSandbox on 127.0.0.1, profile loaded
 * by src/profile): every client feature end to end, including token expiry through the clock hook.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetClient, startProfileJwksServers } from '../../src/client/index.js';
import type { TargetClient } from '../../src/client/types.js';
import { loadProfile } from '../../src/profile/index.js';
import type { ResolvedProfile } from '../../src/profile/types.js';
import { startSandbox, type Sandbox } from '../../src/tenant/index.js';

let sandbox: Sandbox;
let profile: ResolvedProfile;
let jwks: { close(): Promise<void> };
let client: TargetClient;

beforeAll(async () => {
  sandbox = await startSandbox({ hooks: true, tokenTtlSeconds: 60, logger: () => {} });
  profile = await loadProfile(sandbox.profilePath);
  jwks = await startProfileJwksServers(profile);
  client = createTargetClient(profile, { timeoutMs: 5000, seed: 'sandbox' });
});

afterAll(async () => {
  await client?.close();
  await jwks?.close();
  await sandbox?.close();
});

describe('client against the reference', () => {
  it('probes the hooks', async () => {
    expect(await client.hooks?.probe()).toEqual({ clock: true, runs: true });
  });

  it('obtains tokens with both grant methods and lists owner IDs', async () => {
    const bySecret = await client.token('primary', 'secret');
    const byAssertion = await client.token('primary', 'assertion');
    expect(bySecret.tokenType.toLowerCase()).toBe('bearer');
    expect(byAssertion.accessToken).not.toBe(bySecret.accessToken);
    const owners = await client.ownerIds(profile.apps.owners?.appId ?? '');
    expect(owners.status).toBe(200);
    expect(owners.json()).toHaveProperty('userIds');
  });

  it('walks each counted app to exactly its count', async () => {
    for (const app of Object.values(profile.apps.entitlements)) {
      if (!app) continue;
      const walk = await client.walkEntitlements(app.appId);
      expect(walk.items).toHaveLength(app.count);
      expect(walk.pages.at(-1)?.nextPageToken).toBe('');
    }
  });

  it('sends valid HMAC and JWT webhooks; a duplicate event is 409; the run is visible', async () => {
    const hmac = await client.sendWebhook('hmac', { body: { greeting: 'hello' } });
    expect(hmac.status).toBe(200);
    const eventId = hmac.exchange.request.headers['webhook-event-id'] ?? '';
    const duplicate = await client.sendWebhook('hmac', { eventId });
    expect(duplicate.status).toBe(409);
    const runs = await client.hooks?.runs(profile.webhooks.hmac?.listenerId ?? '');
    expect(runs?.filter((run) => run.eventId === eventId)).toEqual([expect.objectContaining({ context: { greeting: 'hello' } })]);
    for (const alg of ['RS256', 'ES256', 'EdDSA'] as const) {
      expect((await client.sendWebhook('jwt', { jwt: { alg } })).status, alg).toBe(200);
    }
    expect((await client.sendWebhook('hmac', { hmac: { decodedKey: true } })).status).toBe(401);
    expect((await client.sendWebhook('hmac', { bodyBytes: profile.limits.webhookBodyBytes })).status).toBe(200);
  });

  it('refreshes a token the target expired (clock advanced) after one 401', async () => {
    const before = await client.token();
    await client.hooks?.advance(120); // past the 60 s lifetime on the target's clock
    const mark = client.recorder.mark();
    const owners = await client.ownerIds(profile.apps.owners?.appId ?? '');
    expect(owners.status).toBe(200);
    const statuses = client.recorder.since(mark).map((e) => e.response?.status);
    expect(statuses).toEqual([401, 200, 200]);
    expect((await client.token()).accessToken).not.toBe(before.accessToken);
    // Webhook timestamps follow the advanced clock.
    expect((await client.sendWebhook('hmac')).status).toBe(200);
  });
});
