/**
 * Inbound webhook requests (service.md §4.3, §5.4): a valid request by default, then exactly the overrides
 * the options name, each touching one part. Building is separate from sending so the load driver can
 * build a corpus of requests without a client.
 */
import { randomUUID } from 'node:crypto';
import { buildWebhookClaims, hmacSign, privateJwkValues, signWebhookJwt } from '../crypto/index.js';
import { drawSeeded } from '../data/fake.js';
import { HarnessError } from '../errors.js';
import type { SigningJwk } from '../profile/types.js';
import type { WebhookOptions } from './types.js';
import { mangleSignature } from './signature-mangle.js';

export type WebhookAuth = { hmacSecret: string } | { jwtKeys: SigningJwk[] } | { none: true };

export interface BuiltWebhook {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  eventId: string;
  /** The Webhook-Timestamp value sent (before any header override). */
  timestamp: string;
  /** Values the recorder must redact: the JWT built, secrets handed in through options. */
  secrets: string[];
  /** Values made for this request only (the HMAC signature): redacted from the answers that follow it. */
  ephemeral: string[];
}

export interface WebhookContext {
  /** Tenant base URL: where the request goes and the JWT `sub`. */
  baseUrl: string;
  /** Base of the JWT `aud`. */
  webhookBaseUrl: string;
  /** Unix seconds from the target's clock (or local time). */
  now: number;
  /** Seed for the default body; a different scope per request gives different bodies. */
  seed: string;
  scope: string;
}

export function listenerPath(listenerId: string): string {
  return `/api/v1/webhooks/incoming/${encodeURIComponent(listenerId)}`;
}

/**
 * The instant default bodies' `occurredAt` is drawn before: fixed, so one seed gives one body on any day (the
 * body is the automation's payload, which the service never reads a time from; the request's freshness is
 * its Webhook-Timestamp header).
 */
const BODY_REFERENCE_DATE = Date.UTC(2025, 0, 1);

/** A small event-shaped JSON object, as an automation trigger would receive. */
export function defaultWebhookBody(seed: string, scope: string): Record<string, unknown> {
  return drawSeeded(seed, scope, (faker) => ({
    event: faker.helpers.arrayElement(['access.requested', 'access.granted', 'access.revoked', 'user.offboarded']),
    user: { id: faker.string.alphanumeric(12), email: faker.internet.email(), name: faker.person.fullName() },
    app: { id: faker.string.alphanumeric(12), name: faker.company.name() },
    reason: faker.lorem.sentence(),
    occurredAt: faker.date.recent({ refDate: BODY_REFERENCE_DATE }).toISOString(),
  }));
}

/**
 * A JSON text of exactly `bytes` UTF-8 bytes: the object with a `padding` string grown to fit. Below the
 * object's own size it falls back to `{"padding":"…"}`, then to a JSON string, so any size ≥ 2 works.
 */
export function padJson(value: Record<string, unknown>, bytes: number): Buffer {
  if (!Number.isInteger(bytes) || bytes < 1) {
    throw new HarnessError('USAGE', `bodyBytes must be a positive integer, got ${bytes}`);
  }
  for (const base of [value, {}]) {
    const empty = Buffer.byteLength(JSON.stringify({ ...base, padding: '' }), 'utf8');
    if (bytes >= empty) return Buffer.from(JSON.stringify({ ...base, padding: 'x'.repeat(bytes - empty) }), 'utf8');
  }
  if (bytes === 1) return Buffer.from('0');
  return Buffer.from(`"${'x'.repeat(bytes - 2)}"`, 'utf8');
}

function bodyOf(options: WebhookOptions, ctx: WebhookContext): Buffer {
  const { body } = options;
  if (options.bodyBytes !== undefined && (typeof body === 'string' || body instanceof Uint8Array)) {
    throw new HarnessError('USAGE', 'bodyBytes pads a JSON body built by the client; with a raw string or bytes body, size it yourself');
  }
  if (Buffer.isBuffer(body)) return body;
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  const value = body === undefined ? defaultWebhookBody(ctx.seed, ctx.scope) : body;
  if (options.bodyBytes !== undefined) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new HarnessError('USAGE', 'bodyBytes pads a JSON object body; give an object (or no body) with it');
    }
    return padJson(value as Record<string, unknown>, options.bodyBytes);
  }
  return Buffer.from(JSON.stringify(value), 'utf8');
}

function pickKey(keys: SigningJwk[], options: NonNullable<WebhookOptions['jwt']>): SigningJwk {
  if (options.key) return options.key;
  const key = options.kid !== undefined
    ? keys.find((k) => k.kid === options.kid)
    : options.alg !== undefined
      ? keys.find((k) => k.alg === options.alg)
      : keys[0];
  if (!key) {
    const wanted = options.kid !== undefined ? `kid "${options.kid}"` : `alg ${options.alg ?? '(any)'}`;
    throw new HarnessError('USAGE', `the listener has no signing key with ${wanted}`, {
      hint: 'Add such a key to the listener\'s signingKeys in the profile, or skip the checks that need it.',
    });
  }
  return key;
}

/** Sets a header, replacing any existing one whatever its case. */
function setHeader(headers: Record<string, string>, name: string, value: string): void {
  for (const existing of Object.keys(headers)) if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
  headers[name] = value;
}

export async function buildWebhook(listenerId: string, auth: WebhookAuth, options: WebhookOptions, ctx: WebhookContext): Promise<BuiltWebhook> {
  const body = bodyOf(options, ctx);
  const eventId = options.eventId ?? randomUUID();
  const timestamp = options.timestamp !== undefined
    ? String(options.timestamp)
    : String(Math.floor(ctx.now) + (options.timestampOffset ?? 0));
  const url = `${ctx.baseUrl}${listenerPath(listenerId)}`;
  const secrets: string[] = [];
  const ephemeral: string[] = [];
  const headers: Record<string, string> = {};
  if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
  headers['webhook-timestamp'] = timestamp;
  headers['webhook-event-id'] = eventId;

  if ('hmacSecret' in auth) {
    const hmac = options.hmac ?? {};
    const secret = hmac.secret ?? auth.hmacSecret;
    secrets.push(secret);
    const signed = hmac.signature ?? hmacSign({
      secret,
      timestamp: hmac.signedTimestamp ?? timestamp,
      eventId: hmac.signedEventId ?? eventId,
      body: hmac.signedBody ?? body,
      decodedKey: hmac.decodedKey,
      order: hmac.order,
      padded: hmac.padded,
      standardBase64: hmac.standardBase64,
      hex: hmac.hex,
      separator: hmac.separator,
    });
    const signature = hmac.mangle === undefined ? signed : mangleSignature(signed, hmac.mangle);
    headers['webhook-signature'] = signature;
    // HTTP drops whitespace around a field value (RFC 7230 §3.2.4): a target that echoes the value echoes
    // it trimmed, and that form must be redacted too.
    ephemeral.push(...new Set([signature, signature.trim()].filter((value) => value !== '')));
  } else if ('jwtKeys' in auth) {
    const jwt = options.jwt ?? {};
    let authorization = jwt.authorization;
    if (authorization === undefined) {
      const key = pickKey(auth.jwtKeys, jwt);
      secrets.push(...privateJwkValues(key));
      const claims = buildWebhookClaims({
        baseUrl: ctx.baseUrl,
        webhookUrl: `${ctx.webhookBaseUrl}${listenerPath(listenerId)}`,
        eventId,
        body,
        now: Math.floor(ctx.now),
        expIn: jwt.expIn,
      });
      for (const [name, value] of Object.entries(jwt.claims ?? {})) {
        if (value === null) delete claims[name];
        else claims[name] = value;
      }
      const token = await signWebhookJwt({
        key,
        claims,
        header: jwt.header,
        forge: jwt.forge,
        hs256Key: jwt.hs256Key,
        serialize: jwt.serialize,
        tamper: jwt.tamper,
      });
      secrets.push(token);
      authorization = `Bearer ${token}`;
    }
    headers.authorization = authorization;
  }

  const omit = new Set((options.omitHeaders ?? []).map((name) => name.toLowerCase()));
  for (const name of Object.keys(headers)) if (omit.has(name.toLowerCase())) delete headers[name];
  for (const [name, value] of Object.entries(options.headers ?? {})) setHeader(headers, name, value);
  return { method: 'POST', url, headers, body, eventId, timestamp, secrets, ephemeral };
}
