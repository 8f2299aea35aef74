/**
 * Recipes of the three kinds of request the client sends, built when it sends them and kept on the
 * recorded exchange (`RecordedExchange.replay`): a webhook as its options, a token request as its options,
 * anything else as the request with its credentials named. replay.ts makes each anew.
 */
import { isUuidV4 } from '../crypto/uuid.js';
import type { ListenerKey } from '../profile/types.js';
import { NotPortable, encodePortable, type EncodeOptions, type Portable } from './replay-encode.js';
import type { TokenRequestOptions, WebhookOptions } from './types.js';
import type { WebhookAuth } from './webhooks.js';

export type ReplayRecipe =
  | {
      kind: 'webhook';
      /** A profile listener's key, or an explicit listener ID and auth (unknown-listener checks). */
      listener: ListenerKey | { listenerId: Portable; auth: Portable };
      options: Portable;
      /** `fresh`: a new event ID on every replay; `kept`: the check is about this one (its form or a repeat). */
      eventId: 'fresh' | 'kept';
    }
  | { kind: 'token'; options: Portable }
  | { kind: 'request'; method: string; url: Portable; headers: Portable; body?: Portable };

/** What an exchange says about its replay: a recipe, or why there is none. */
export type ReplayNote = { recipe: ReplayRecipe } | { unavailable: string };

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

/** Whether the check is about this event ID: not in the canonical v4 form, or sent before by this client. */
function keepsEventId(eventId: string | undefined, sentBefore: (id: string) => boolean): boolean {
  if (eventId === undefined) return false;
  return !(isUuidV4(eventId) && eventId === eventId.toLowerCase()) || sentBefore(eventId);
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
  sentBefore: (id: string) => boolean;
}

export function webhookRecipe(input: WebhookRecipeInput, ctx: EncodeOptions): ReplayNote {
  return note(() => {
    const eventId = keepsEventId(input.options.eventId, input.sentBefore) ? 'kept' : 'fresh';
    const known = eventId === 'fresh' ? [...ctx.known, [input.eventId, { $eventId: true }] as const] : ctx.known;
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
    if ('listener' in target) return { kind: 'webhook', listener: target.listener, options, eventId };
    const auth: Portable = 'hmacSecret' in target.auth
      ? { hmacSecret: encodePortable(target.auth.hmacSecret, { ...enc, otherSecretOk: true }) }
      : 'jwtKeys' in target.auth
        ? { jwtKeys: encodePortable(target.auth.jwtKeys, enc) }
        : { none: true };
    return { kind: 'webhook', listener: { listenerId: encodePortable(target.listenerId, enc), auth }, options, eventId };
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
