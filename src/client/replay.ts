/**
 * Makes a recipe (replay-recipe.ts) into a request again, through the same client calls the check made:
 * the markers become values of this moment and this target (its clock, a fresh event ID, the profile's
 * secrets, a token obtained now, a fresh "other" key), so the request is as the check built it, only new.
 */
import { generateHmacSecret, generateSigningKey, toPublicJwk } from '../crypto/index.js';
import { randomUuidV4 } from '../crypto/uuid.js';
import { HarnessError } from '../errors.js';
import type { CredentialKey, JwtAlg, ListenerKey, SigningJwk } from '../profile/types.js';
import type { Portable } from './replay-encode.js';
import type { ReplayRecipe } from './replay-note.js';
import type { HttpResponse, RawRequest, TargetClient, TokenRequestOptions, WebhookOptions } from './types.js';

interface ReplayState {
  now: number;
  eventId: string;
  keys: Map<string, SigningJwk>;
  client: TargetClient;
}

const invalid = (message: string): HarnessError =>
  new HarnessError('USAGE', `the reproduction file is not valid: ${message}`, { field: '--replay', hint: 'Use a file a run wrote under <out>/reproductions/, unchanged.' });

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

function isRecord(value: unknown): value is Record<string, Portable> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function profileValue(client: TargetClient, path: string): unknown {
  let value: unknown = client.profile;
  for (const part of path.split('.')) {
    if (!/^[A-Za-z0-9]+$/.test(part) || !isRecord(value) && !Array.isArray(value)) throw invalid(`no profile value ${path.slice(0, 80)}`);
    value = (value as Record<string, unknown>)[part];
  }
  if (value === undefined) {
    throw new HarnessError('USAGE', `the profile has no ${path.slice(0, 80)}, which this reproduction needs`, { field: '--profile' });
  }
  return value;
}

function keyId(spec: Record<string, Portable>): string {
  return `${String(spec.alg)}|${String(spec.kid ?? '')}`;
}

/** Every `$otherKey` of the recipe made once (a `$publicOf` must name the key that signs). */
async function makeKeys(value: Portable, state: ReplayState): Promise<void> {
  if (Array.isArray(value)) for (const item of value) await makeKeys(item, state);
  else if (isRecord(value)) {
    const spec = value.$otherKey;
    if (isRecord(spec)) {
      if (!state.keys.has(keyId(spec))) state.keys.set(keyId(spec), await generateSigningKey(spec.alg as JwtAlg, typeof spec.kid === 'string' ? spec.kid : undefined));
      return;
    }
    for (const item of Object.values(value)) await makeKeys(item, state);
  }
}

async function decode(value: Portable, state: ReplayState): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((item) => decode(item, state)));
  if (!isRecord(value)) return value;
  if (typeof value.$now === 'number') return Math.floor(state.now) + value.$now;
  if (typeof value.$nowText === 'number') return String(Math.floor(state.now) + value.$nowText);
  if (typeof value.$nowMs === 'number') return String(Math.floor(state.now) * 1000 + value.$nowMs);
  if (typeof value.$nowIso === 'number') {
    const iso = new Date(Math.floor(state.now) * 1000 + value.$nowIso).toISOString();
    return value.fraction === true ? iso : iso.replace(/\.\d{3}Z$/, 'Z');
  }
  if (value.$eventId === true) return state.eventId;
  if (typeof value.$profile === 'string') return profileValue(state.client, value.$profile);
  if (typeof value.$token === 'string') {
    const [credential, method] = value.$token.split(':');
    return (await state.client.token(credential as CredentialKey, method === 'assertion' ? 'assertion' : 'secret')).accessToken;
  }
  if (value.$otherSecret === true) return generateHmacSecret();
  if (isRecord(value.$otherKey)) return state.keys.get(keyId(value.$otherKey));
  if (value.$publicOf === 'key') {
    const [key] = state.keys.values();
    if (key === undefined) throw invalid('$publicOf without a key made for it');
    return toPublicJwk(key);
  }
  if (typeof value.$bytes === 'string') return Buffer.from(value.$bytes, 'base64');
  if (Array.isArray(value.$concat)) {
    const parts = await Promise.all(value.$concat.map((part) => decode(part, state)));
    if (!parts.every((part) => typeof part === 'string')) throw invalid('$concat of something other than text');
    return parts.join('');
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = await decode(item, state);
  return out;
}

type WebhookRecipe = Extract<ReplayRecipe, { kind: 'webhook' }>;

/** The new event ID written as the check wrote its repeat (upper case, braces, without hyphens…). */
function inForm(eventId: string, form: NonNullable<WebhookRecipe['eventIdForm']>): string {
  const digits = form.hyphens ? eventId : eventId.replace(/-/g, '');
  return form.template.replace('{ID}', form.digits === 'upper' ? digits.toUpperCase() : digits);
}

async function replayWebhook(client: TargetClient, recipe: WebhookRecipe, state: ReplayState, label: string): Promise<HttpResponse> {
  const options = (await decode(recipe.options, state)) as WebhookOptions;
  if (recipe.eventId !== 'kept') options.eventId = recipe.eventIdForm ? inForm(state.eventId, recipe.eventIdForm) : state.eventId;
  options.label = label;
  if (typeof recipe.listener === 'string') return client.sendWebhook(recipe.listener as ListenerKey, options);
  const listenerId = await decode(recipe.listener.listenerId, state);
  const auth = (await decode(recipe.listener.auth, state)) as Parameters<TargetClient['sendWebhookTo']>[1];
  if (typeof listenerId !== 'string') throw invalid('listenerId is not text');
  return client.sendWebhookTo(listenerId, auth, options);
}

/** Sends the recipe's request once more; the answer is the check's decisive one, made anew. */
export async function replay(client: TargetClient, recipe: ReplayRecipe): Promise<HttpResponse> {
  const state: ReplayState = { now: await client.now(), eventId: randomUuidV4(), keys: new Map(), client };
  await makeKeys(recipe as unknown as Portable, state);
  if (recipe.kind === 'webhook') {
    // A repeat: the first request with the ID goes first, under the same new ID; its answer only sets up.
    for (const first of recipe.prelude ?? []) if (first.kind === 'webhook') await replayWebhook(client, first, state, 'replay: the first request with this event ID');
    if (recipe.clockAdvance !== undefined && recipe.clockAdvance > 0) {
      // As the check did (an event ID days later): the test hooks move the target's clock, for good.
      if (client.hooks === undefined) {
        throw new HarnessError('USAGE', `this reproduction moves the target's clock ${recipe.clockAdvance} s between its two requests, as the check did, and the profile offers no test hooks`, {
          field: '--profile',
          hint: 'Replay it against a target with the clock hook (serve --hooks), or use the rerun line.',
        });
      }
      await client.hooks.advance(recipe.clockAdvance);
      state.now = await client.now();
    }
    return replayWebhook(client, recipe, state, 'replay');
  }
  if (recipe.kind === 'token') return client.requestToken({ ...((await decode(recipe.options, state)) as TokenRequestOptions), label: 'replay' });
  if (recipe.kind === 'request') {
    const url = String(await decode(recipe.url, state));
    // A recipe names the profile's secrets; it may send them only to the target the profile names (a
    // tampered file must not carry them anywhere else).
    const allowed = [client.profile.baseUrl, client.profile.webhookBaseUrl, client.profile.hooks?.baseUrl].filter((u): u is string => u !== undefined).map(originOf);
    if (!allowed.includes(originOf(url))) {
      throw invalid(`it sends to ${originOf(url) || 'an address that is not a URL'}, which is not the target the profile names`);
    }
    const request: RawRequest = {
      method: recipe.method,
      url,
      headers: (await decode(recipe.headers, state)) as Record<string, string>,
      ...(recipe.body === undefined ? {} : { body: (await decode(recipe.body, state)) as string | Buffer }),
      label: 'replay',
      retryOn429: false,
    };
    return client.request(request);
  }
  throw invalid('unknown kind');
}
