/**
 * Webhook helpers for faults. A fault that wrongly accepts a request emulates its faulty rule here, then
 * hands the reference a request it accepts: the same timestamp, event ID and body, re-authenticated with the
 * listener's real secret or signing key (the fault is part of the service; it knows them). The reference
 * then does everything after authentication (JSON, idempotency, the run) as usual.
 */
import { hmacSign, hmacVerify } from '../../crypto/hmac.js';
import { toPublicJwk } from '../../crypto/signing-keys.js';
import type { JWK, VerifyResult } from '../../crypto/types.js';
import { buildWebhookClaims, signWebhookJwt, verifyWebhookJwt, type WebhookJwtRefusal } from '../../crypto/webhook-jwt.js';
import type { ReferenceRequest } from '../../reference/types.js';
import type { TenantHmacListener, TenantJwtListener } from '../../tenant/types.js';
import type { FaultEnv } from './define.js';
import { bearerToken, header, listenerUrl, withHeaders, type KnownListener } from './http.js';
import { WEBHOOK_JWT_MAX_EXP_SECONDS } from '../../spec-numbers.js';

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

/** The compact JWT of `Authorization: Bearer <JWT>`, when the header has that form. */
export const bearerJwt = bearerToken;

function publicKey(listener: TenantJwtListener, kid: string): JWK | undefined {
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
  return verifyWebhookJwt(jwt, options.getKey ?? (async (kid) => publicKey(listener, kid)), {
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
