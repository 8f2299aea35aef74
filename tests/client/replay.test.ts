/**
 * Replay recipes (client/replay-*.ts): what the client keeps on each exchange, and that a recipe sent again
 * later, by another client, gets the answer the first request got; against the reference on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetClient } from '../../src/client/index.js';
import { startProfileJwksServers } from '../../src/client/jwks-server.js';
import { replay } from '../../src/client/replay.js';
import type { RecordedExchange, ReplayRecipe, TargetClient } from '../../src/client/types.js';
import { generateSigningKey } from '../../src/crypto/index.js';
import { loadProfile } from '../../src/profile/load.js';
import type { ResolvedProfile } from '../../src/profile/types.js';
import { startSandbox, type Sandbox } from '../../src/tenant/index.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let sandbox: Sandbox;
let profile: ResolvedProfile;
let jwks: { close(): Promise<void> };
const clients: TargetClient[] = [];

function client(): TargetClient {
  const c = createTargetClient(profile, { seed: 'replay-test' });
  clients.push(c);
  return c;
}

function recipeOf(exchange: RecordedExchange): ReplayRecipe {
  const note = exchange.replay;
  if (note === undefined || !('recipe' in note)) throw new Error(`no recipe: ${JSON.stringify(note)}`);
  return note.recipe;
}

beforeAll(async () => {
  sandbox = await startSandbox({ hooks: true, seed: 'replay-test', profileDir: mkdtempSync(join(tmpdir(), 'ac-replay-')), logger: () => {} });
  profile = await loadProfile(sandbox.profilePath);
  jwks = await startProfileJwksServers(profile);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await jwks.close();
  await sandbox.close();
});

describe('replay recipes', () => {
  it('a spoiled HMAC request: no secret in the recipe, the same refusal ten minutes later from another client', async () => {
    const first = client();
    const spoiled = await first.sendWebhook('hmac', { hmac: { order: ['timestamp', 'body', 'eventId'] } });
    expect(spoiled.status).toBe(401);
    const recipe = recipeOf(spoiled.exchange);
    const text = JSON.stringify(recipe);
    const listener = profile.webhooks.hmac!;
    expect(text).not.toContain('secret' in listener ? listener.secret : '-');
    expect(text).not.toContain(listener.listenerId);
    expect(recipe).toMatchObject({ kind: 'webhook', listener: 'hmac', eventId: 'fresh' });
    const valid = await first.sendWebhook('hmac', {});
    expect(valid.status).toBe(200);
    await first.hooks!.advance(600);
    const later = client();
    expect((await replay(later, recipe)).status).toBe(401);
    // A valid request's recipe is valid again: a fresh event ID (no 409) and a fresh timestamp (no 400).
    expect((await replay(later, recipeOf(valid.exchange))).status).toBe(200);
    expect((await replay(later, recipeOf(valid.exchange))).status).toBe(200);
  });

  it('a repeated event ID: the first request goes first under one new ID; a form that is not canonical is kept', async () => {
    const c = client();
    const eventId = crypto.randomUUID();
    expect((await c.sendWebhook('hmac', { eventId })).status).toBe(200);
    const repeat = await c.sendWebhook('hmac', { eventId });
    expect(repeat.status).toBe(409);
    const recipe = recipeOf(repeat.exchange);
    expect(recipe).toMatchObject({ eventId: 'repeat', prelude: [{ kind: 'webhook', eventId: 'fresh' }] });
    expect(JSON.stringify(recipe)).not.toContain(eventId);
    // Against the same target and against any other: the first request sets up, the repeat gets 409.
    const later = client();
    expect((await replay(later, recipe)).status).toBe(409);
    const sent = later.recorder.all().filter((e) => e.request.url.includes('/webhooks/incoming/')).slice(-2);
    expect(sent.map((e) => e.response?.status)).toEqual([200, 409]);
    expect(sent[0]!.request.headers['webhook-event-id']).toBe(sent[1]!.request.headers['webhook-event-id']);
    const upper = await c.sendWebhook('hmac', { eventId: crypto.randomUUID().toUpperCase() });
    expect(recipeOf(upper.exchange)).toMatchObject({ eventId: 'kept' });
  });

  it('duplicates sent in parallel: the first called is the first, whichever finishes first', async () => {
    const c = client();
    const eventId = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 5 }, () => c.sendWebhook('hmac', { eventId })));
    const recipes = answers.map((answer) => recipeOf(answer.exchange));
    expect(recipes.map((r) => (r.kind === 'webhook' ? r.eventId : r.kind))).toEqual(['fresh', 'repeat', 'repeat', 'repeat', 'repeat']);
    // Every repeat's reproduction sets the duplicate up on its own: 409 from the reference.
    for (const recipe of recipes.slice(1)) expect((await replay(client(), recipe)).status).toBe(409);
  });

  it('a repeat across a move of the target clock moves it as much between the two requests', async () => {
    const c = client();
    const eventId = crypto.randomUUID();
    expect((await c.sendWebhook('hmac', { eventId })).status).toBe(200);
    await c.hooks!.advance(60);
    const repeat = await c.sendWebhook('hmac', { eventId });
    const recipe = recipeOf(repeat.exchange);
    expect(recipe).toMatchObject({ eventId: 'repeat', clockAdvance: 60 });
    const later = client();
    const before = await later.hooks!.now();
    expect((await replay(later, recipe)).status).toBe(409);
    expect(await later.hooks!.now()).toBeGreaterThanOrEqual(before + 60);
  });

  it('a JWT signed by another key under the listed kid: a fresh other key on replay, still refused', async () => {
    const c = client();
    const listed = (profile.webhooks.jwt as { signingKeys: Array<{ alg: 'RS256' | 'ES256' | 'EdDSA'; kid: string }> }).signingKeys[0]!;
    const impostor = await generateSigningKey(listed.alg, listed.kid);
    const refused = await c.sendWebhook('jwt', { jwt: { key: impostor } });
    expect(refused.status).toBe(401);
    const recipe = recipeOf(refused.exchange);
    expect(JSON.stringify(recipe)).toContain('"$otherKey"');
    expect(JSON.stringify(recipe)).not.toContain(String((impostor as unknown as { d: string }).d));
    expect((await replay(client(), recipe)).status).toBe(401);
    const valid = await c.sendWebhook('jwt', {});
    expect(valid.status).toBe(200);
    expect((await replay(client(), recipeOf(valid.exchange))).status).toBe(200);
  });

  it('an API call names its token; the replay obtains one', async () => {
    const c = client();
    const appId = profile.apps.owners!.appId;
    const answer = await c.ownerIds(appId);
    expect(answer.status).toBe(200);
    const recipe = recipeOf(answer.exchange);
    const token = (await c.token()).accessToken;
    expect(JSON.stringify(recipe)).not.toContain(token);
    expect(JSON.stringify(recipe)).toContain('{"$token":"primary:secret"}');
    // The app is named through the profile, so the recipe replays against a target with other IDs.
    expect(JSON.stringify(recipe)).toContain('{"$profile":"apps.owners.appId"}');
    expect((await replay(client(), recipe)).status).toBe(200);
  });

  it('a request recipe sends only to the target the profile names (a tampered file cannot carry a secret away)', async () => {
    const tampered: ReplayRecipe = {
      kind: 'request',
      method: 'GET',
      url: 'http://127.0.0.1:9/collect',
      headers: { authorization: { $concat: ['Bearer ', { $token: 'primary:secret' }] } },
    };
    await expect(replay(client(), tampered)).rejects.toMatchObject({ code: 'USAGE', message: expect.stringContaining('which is not the target the profile names') });
  });

  it('says why when a request cannot travel', async () => {
    const c = client();
    const forged = await c.sendWebhook('jwt', { jwt: { serialize: (claims) => JSON.stringify({ ...claims, exp: null }) } });
    expect(forged.exchange.replay).toEqual({ unavailable: 'part of it is built by a function of the check' });
    const wrongSecret = await c.requestToken({ method: 'secret', clientSecret: 'secret-token:made-up-for-this-check' });
    expect(wrongSecret.exchange.replay).toMatchObject({ unavailable: expect.stringMatching(/^it carries a credential/) });
  });
});
