/**
 * Recipes of the three kinds of request the client sends, built when it sends them and kept on the
 * recorded exchange (`RecordedExchange.replay`): a webhook as its options, a token request as its options,
 * anything else as the request with its credentials named. replay.ts makes each anew.
 */
import { isUuidV4 } from '../crypto/uuid.js';
import type { ListenerKey } from '../profile/types.js';
import { NotPortable, encodePortable, type EncodeOptions, type Portable } from './replay-encode.js';
import type { ReplayNote, ReplayRecipe } from './replay-note.js';
import type { TokenRequestOptions, WebhookOptions } from './types.js';
import type { WebhookAuth } from './webhooks.js';
import { UUID_IN_TEXT } from './replay-context.js';

/**
 * The object holding a recipe's body (`body` of a webhook's options, or of a request): reproductions.ts
 * moves a large one to a file beside the recipe, and `send --replay` reads it back there.
 */
export function recipeBodyHolder(recipe: ReplayRecipe): Record<string, unknown> | undefined {
  if (recipe.kind === 'webhook') return typeof recipe.options === 'object' && recipe.options !== null && !Array.isArray(recipe.options) ? recipe.options : undefined;
  return recipe.kind === 'request' ? (recipe as unknown as Record<string, unknown>) : undefined;
}

function note(build: () => ReplayRecipe, ctx: EncodeOptions): ReplayNote {
  try {
    const recipe = build();
    // The last line of defence: nothing the recorder would redact may be written out.
    if (ctx.carriesSecret(JSON.stringify(recipe))) return { unavailable: 'it would carry a credential' };
    return { recipe };
  } catch (error) {
    if (error instanceof NotPortable) return { unavailable: error.message };
    throw error;
  }
}

/** The event ID's rule for the replay, with what a repeat needs. */
type EventIdRule =
  | { rule: 'fresh' | 'kept' }
  | { rule: 'repeat'; first: ReplayRecipe; clockAdvance: number; form?: NonNullable<Extract<ReplayRecipe, { kind: 'webhook' }>['eventIdForm']> };

/** How another text form of a UUID (`{…}`, `urn:uuid:…`, upper case, 32 hex digits) writes it. */
function uuidForm(text: string): NonNullable<Extract<EventIdRule, { rule: 'repeat' }>['form']> | undefined {
  const match = UUID_IN_TEXT.exec(text);
  if (!match) return undefined;
  const digits = match[0] === match[0].toUpperCase() && /[A-F]/.test(match[0]) ? 'upper' : 'lower';
  const template = `${text.slice(0, match.index)}{ID}${text.slice(match.index + match[0].length)}`;
  return { template, digits, hyphens: match[0].includes('-') };
}

/**
 * What the replay does with the event ID: a new one, unless the check is about it: its form (not the
 * canonical v4 text: kept), or a repeat of one this client sent (the first request goes first, both under
 * one new ID, and the target's clock moves between them as far as the check moved it).
 */
function eventIdRule(eventId: string | undefined, earlier: WebhookRecipeInput['earlier']): EventIdRule {
  if (eventId === undefined) return { rule: 'fresh' };
  const canonical = isUuidV4(eventId) && eventId === eventId.toLowerCase();
  // Another form of an ID this client sent is a repeat too (one UUID in two forms is one event).
  const form = canonical ? undefined : uuidForm(eventId);
  const before = earlier();
  if (before === undefined) return { rule: canonical ? 'fresh' : 'kept' };
  if (before.first === undefined) throw new NotPortable('it repeats an event ID whose first request cannot be sent alone');
  return { rule: 'repeat', first: before.first, clockAdvance: before.clockMovedSeconds, ...(form ? { form } : {}) };
}

function samePublicKey(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return ['kty', 'crv', 'x', 'y', 'n', 'e'].every((name) => a[name] === b[name]);
}

export interface WebhookRecipeInput {
  target: { listener: ListenerKey } | { listenerId: string; auth: WebhookAuth };
  options: WebhookOptions;
  /** What was sent: its exact body and event ID. */
  body: Buffer;
  eventId: string;
  /** The first request of this client with the event ID, when this is a later one (replay-context.ts). */
  earlier: () => { first?: ReplayRecipe; clockMovedSeconds: number } | undefined;
}

export function webhookRecipe(input: WebhookRecipeInput, ctx: EncodeOptions): ReplayNote {
  return note(() => {
    const decided = eventIdRule(input.options.eventId, input.earlier);
    const eventId = decided.rule;
    const prelude = decided.rule === 'repeat'
      ? { prelude: [decided.first], ...(decided.clockAdvance > 0 ? { clockAdvance: decided.clockAdvance } : {}), ...(decided.form ? { eventIdForm: decided.form } : {}) }
      : {};
    const known = eventId !== 'kept' ? [...ctx.known, [input.eventId, { $eventId: true }] as const] : ctx.known;
    const enc: EncodeOptions = { ...ctx, known: [...known].sort((a, b) => b[0].length - a[0].length) };
    // The exact bytes sent stand for the body (a default body, bodyBytes padding, a raw text alike).
    const { label: _label, bodyBytes: _bytes, hmac, jwt, ...rest } = input.options;
    const options: Record<string, Portable> = {
      ...(encodePortable({ ...rest, body: input.body, eventId: eventId === 'kept' ? input.options.eventId : undefined }, enc) as Record<string, Portable>),
    };
    if (hmac !== undefined) {
      const { secret, ...hmacRest } = hmac;
      options.hmac = {
        ...(encodePortable(hmacRest, enc) as Record<string, Portable>),
        ...(secret === undefined ? {} : { secret: encodePortable(secret, { ...enc, otherSecretOk: true }) }),
      };
    }
    if (jwt !== undefined) {
      const encoded = encodePortable(jwt, enc) as Record<string, Portable>;
      const jwk = jwt.header?.jwk;
      if (jwt.key && jwk && typeof jwk === 'object' && samePublicKey(jwk as Record<string, unknown>, jwt.key as unknown as Record<string, unknown>)) {
        encoded.header = { ...(encoded.header as Record<string, Portable>), jwk: { $publicOf: 'key' } };
      }
      options.jwt = encoded;
    }
    const { target } = input;
    if ('listener' in target) return { kind: 'webhook', listener: target.listener, options, eventId, ...prelude };
    const auth: Portable = 'hmacSecret' in target.auth
      ? { hmacSecret: encodePortable(target.auth.hmacSecret, { ...enc, otherSecretOk: true }) }
      : 'jwtKeys' in target.auth
        ? { jwtKeys: encodePortable(target.auth.jwtKeys, enc) }
        : { none: true };
    return { kind: 'webhook', listener: { listenerId: encodePortable(target.listenerId, enc), auth }, options, eventId, ...prelude };
  }, ctx);
}

export function tokenRecipe(options: TokenRequestOptions, ctx: EncodeOptions): ReplayNote {
  return note(() => {
    const { label: _label, ...rest } = options;
    return { kind: 'token', options: encodePortable(rest, ctx) };
  }, ctx);
}

export function requestRecipe(req: { method: string; url: string; headers: Record<string, string>; body?: string | Buffer }, ctx: EncodeOptions): ReplayNote {
  return note(() => ({
    kind: 'request',
    method: req.method,
    url: encodePortable(req.url, ctx),
    headers: encodePortable(req.headers, ctx),
    ...(req.body === undefined ? {} : { body: encodePortable(req.body, ctx) }),
  }), ctx);
}
