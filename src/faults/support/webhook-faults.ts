/**
 * The shape of most webhook faults: a rule of §5.4 / §7 applied differently. `webhookFault` hands each
 * request to a listener (known or not) to the fault's `handle`; `acceptAs` is how a fault lets through a
 * request the reference would refuse: it checks that the sender authenticated the request as sent (the
 * faulty rule relaxes one thing, not authentication), rewrites the part its rule reads differently, and
 * re-authenticates the rewritten request for the reference, which then does everything else (JSON,
 * idempotency, the run) as usual. Re-authenticating uses the listener's real secret or signing key (the
 * fault is part of the service; it knows them) and the crypto room's own signing and verifying.
 */
import { createHash } from 'node:crypto';
import { hmacSign, hmacVerify } from '../../crypto/hmac.js';
import { toPublicJwk } from '../../crypto/signing-keys.js';
import type { JWK, VerifyResult } from '../../crypto/types.js';
import { buildWebhookClaims, signWebhookJwt, verifyWebhookJwt, type WebhookJwtRefusal } from '../../crypto/webhook-jwt.js';
import type { ReferenceHandler, ReferenceRequest, ReferenceResponse } from '../../reference/types.js';
import { WEBHOOK_JWT_MAX_EXP_SECONDS } from '../../spec-numbers.js';
import type { TenantHmacListener, TenantJwtListener } from '../../tenant/types.js';
import type { FaultBehaviour, FaultEnv } from '../types.js';
import { bearerToken, header, listenerOf, listenerUrl, routeOf, withHeaders, type KnownListener } from './http.js';

export interface HmacParts {
  timestamp: string;
  eventId: string;
  body: Buffer;
}

/** The signed parts as the request carries them ('' for a missing header). */
export function partsOf(request: ReferenceRequest): HmacParts {
  return { timestamp: header(request, 'webhook-timestamp') ?? '', eventId: header(request, 'webhook-event-id') ?? '', body: request.body };
}

/** Whether `signature` is the valid one (§5.4) for these parts. */
export function hmacMatches(listener: TenantHmacListener, parts: HmacParts, signature: string): boolean {
  return hmacVerify(listener.secret, parts.timestamp, parts.eventId, parts.body, signature);
}

/** The request with a valid Webhook-Signature over its current timestamp, event ID and body. */
export function signedHmac(listener: TenantHmacListener, request: ReferenceRequest): ReferenceRequest {
  const parts = partsOf(request);
  return withHeaders(request, { 'webhook-signature': hmacSign({ secret: listener.secret, ...parts }) });
}

/** The listener's public key with this kid. */
export function listedKey(listener: TenantJwtListener, kid: unknown): JWK | undefined {
  const key = listener.signingKeys.find((candidate) => candidate.kid === kid);
  return key === undefined ? undefined : toPublicJwk(key);
}

/**
 * The reference's verdict on the request's JWT, with the listener's keys looked up directly (not through the
 * JWKS fetch) and `expectation` overrides for faults that check a claim against the wrong value.
 */
export async function jwtVerdict(
  env: FaultEnv,
  listener: TenantJwtListener,
  request: ReferenceRequest,
  jwt: string,
  options: { getKey?: (kid: string) => Promise<JWK | undefined>; body?: Buffer } = {},
): Promise<VerifyResult<WebhookJwtRefusal>> {
  return verifyWebhookJwt(jwt, options.getKey ?? (async (kid) => listedKey(listener, kid)), {
    baseUrl: env.tenant.baseUrl,
    webhookUrl: listenerUrl(env.tenant, listener.listenerId),
    eventId: header(request, 'webhook-event-id') ?? '',
    body: options.body ?? request.body,
    now: env.ports().clock.now(),
    maxExpSeconds: WEBHOOK_JWT_MAX_EXP_SECONDS,
  });
}

/** The request with a fresh, valid JWT for its event ID and body, signed by the listener's first key. */
export async function signedJwt(env: FaultEnv, listener: TenantJwtListener, request: ReferenceRequest): Promise<ReferenceRequest> {
  const key = listener.signingKeys[0];
  if (key === undefined) return request;
  const claims = buildWebhookClaims({
    baseUrl: env.tenant.baseUrl,
    webhookUrl: listenerUrl(env.tenant, listener.listenerId),
    eventId: header(request, 'webhook-event-id') ?? '',
    body: request.body,
    now: Math.floor(env.ports().clock.now()),
  });
  return withHeaders(request, { authorization: `Bearer ${await signWebhookJwt({ key, claims })}` });
}

/** The request re-authenticated for its listener, whatever the method. */
export async function authenticated(env: FaultEnv, known: KnownListener, request: ReferenceRequest): Promise<ReferenceRequest> {
  return known.method === 'HMAC' ? signedHmac(known.listener, request) : signedJwt(env, known.listener, request);
}

export type Next = ReferenceHandler;

export interface WebhookCall {
  request: ReferenceRequest;
  listenerId: string;
  /** undefined: a listener the tenant does not have. */
  known: KnownListener | undefined;
  next: Next;
  env: FaultEnv;
}

/** A fault's rule for webhook requests: every other request goes to the reference unchanged. */
export function webhookFault({ handle }: { handle: (call: WebhookCall) => Promise<ReferenceResponse> }): FaultBehaviour {
  return {
    wrap: (handler, env) => async (request) => {
      const route = routeOf(request);
      if (route.kind !== 'webhook') return handler(request);
      return handle({ request, listenerId: route.listenerId, known: listenerOf(env.tenant, route.listenerId), next: handler, env });
    },
  };
}

/** Whether the sender authenticated the request exactly as it arrived. */
export async function sentAuthenticated(env: FaultEnv, known: KnownListener, request: ReferenceRequest): Promise<boolean> {
  if (known.method === 'HMAC') {
    const signature = header(request, 'webhook-signature');
    return signature !== undefined && signature !== '' && hmacMatches(known.listener, partsOf(request), signature);
  }
  const jwt = bearerToken(request);
  return jwt !== undefined && (await jwtVerdict(env, known.listener, request, jwt)).ok;
}

export interface Rewrite {
  timestamp?: string;
  eventId?: string;
  body?: Buffer;
  headers?: Record<string, string | null>;
}

/**
 * The faulty service accepts `call.request` reading it as `rewrite` says. Requests the sender did not
 * authenticate go to the reference unchanged (it refuses them as usual).
 */
export async function acceptAs(call: WebhookCall, rewrite: Rewrite): Promise<ReferenceResponse> {
  const { request, known, env, next } = call;
  if (known === undefined || !(await sentAuthenticated(env, known, request))) return next(request);
  let changed = withHeaders(request, {
    ...(rewrite.timestamp !== undefined ? { 'webhook-timestamp': rewrite.timestamp } : {}),
    ...(rewrite.eventId !== undefined ? { 'webhook-event-id': rewrite.eventId } : {}),
    ...(rewrite.headers ?? {}),
  });
  if (rewrite.body !== undefined) changed = { ...changed, body: rewrite.body, bodyExceeded: false };
  return next(await authenticated(env, known, changed));
}

/** A UUID v4 derived from any text: the faulty service's internal ID for an event ID it should have refused. */
export function uuidV4From(text: string): string {
  const bytes = createHash('sha256').update(text).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The server's time in whole seconds, as a Webhook-Timestamp value. */
export function nowStamp(env: FaultEnv): string {
  return String(Math.floor(env.ports().clock.now()));
}
