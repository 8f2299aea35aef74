/**
 * Webhook JWTs (service.md §5.4 JWT, ruling 22): claims, signing (also the forged forms), and the
 * reference implementation's verifier.
 */
import { jwtVerify, type JWTHeaderParameters } from 'jose';
import { HarnessError } from '../errors.js';
import { sha256Base64Url } from './encoding.js';
import { audienceAndLifetimeRefusal, compactJws, joseRefusal, verifiedClaims, withoutNulls, type ForgedForms, type JwtRefusal } from './jws.js';
import { SIGNING_ALGS, toPublicJwk } from './signing-keys.js';
import type { JWK, SigningJwk, VerifyResult } from './types.js';
import { WEBHOOK_JWT_MAX_EXP_SECONDS } from '../spec-numbers.js';

export interface WebhookClaimsInput {
  /** Tenant base URL: the `sub`. */
  baseUrl: string;
  /** Full listener URL: the `aud`. */
  webhookUrl: string;
  /** `Webhook-Event-Id`: the `jti`. */
  eventId: string;
  body: Buffer;
  /** Unix seconds. */
  now: number;
  /** `exp` seconds from now; default 300. */
  expIn?: number;
}

/** The valid claim set of §5.4. */
export function buildWebhookClaims(input: WebhookClaimsInput): Record<string, unknown> {
  return {
    sub: input.baseUrl,
    aud: input.webhookUrl,
    iat: input.now,
    exp: input.now + (input.expIn ?? 300),
    jti: input.eventId,
    htm: 'POST',
    htb_s256: sha256Base64Url(input.body),
  };
}

/** `hs256Key` e.g. empty: what a `kid` naming /dev/null yields. */
export interface SignWebhookJwtInput extends Omit<ForgedForms, 'unsigned'> {
  key: SigningJwk;
  claims: Record<string, unknown>;
  /** Replaces (value) or removes (`null`) parameters of `{alg, kid, typ: 'JWT'}`. */
  header?: Record<string, unknown | null>;
  /** `none`: unsigned; `HS256-public`: HS256 keyed with the public JWK's JSON text (algorithm confusion). */
  forge?: 'none' | 'HS256-public';
}

export async function signWebhookJwt(input: SignWebhookJwtInput): Promise<string> {
  const header = withoutNulls({ alg: input.key.alg, kid: input.key.kid, typ: 'JWT', ...(input.header ?? {}) });
  // HS256-public: keyed with the text an attacker can fetch, the key's JWKS entry serialised as the JWKS server does.
  const hs256Key = input.forge === 'HS256-public' ? Buffer.from(JSON.stringify(toPublicJwk(input.key)), 'utf8') : input.hs256Key;
  return compactJws(header, withoutNulls(input.claims), { ...input, unsigned: input.forge === 'none', hs256Key }, () => {
    if (header.alg !== input.key.alg) {
      throw new HarnessError('KEY_INVALID', `A ${input.key.alg} key cannot produce a token whose header says alg "${String(header.alg)}".`);
    }
    return input.key as JWK;
  });
}

export type WebhookJwtRefusal =
  | 'malformed'
  | 'alg-not-allowed'
  | 'kid-missing'
  | 'kid-unknown'
  | 'key-alg-mismatch'
  | 'bad-signature'
  | 'claim-missing'
  | 'sub-mismatch'
  | 'aud-mismatch'
  | 'expired'
  | 'exp-too-far'
  | 'exp-invalid'
  | 'nbf-in-future'
  | 'jti-mismatch'
  | 'htm-mismatch'
  | 'htb-mismatch'
  | 'claim-invalid'
  | 'duplicate-member';

export interface WebhookJwtExpectation {
  /** Expected `sub`. */
  baseUrl: string;
  /** Expected `aud` (or an element of it). */
  webhookUrl: string;
  /** Expected `jti`. */
  eventId: string;
  body: Buffer;
  /** Unix seconds (injected clock). */
  now: number;
  /** Longest accepted `exp - now`; default 600 (§5.4: "within 10 minutes"). */
  maxExpSeconds?: number;
}

/**
 * Skew tolerated on `exp`/`nbf` and the 10-minute bound: a few seconds for second rounding and clocks
 * slightly apart; the harness probes at minutes, far outside it.
 */
export const WEBHOOK_JWT_SKEW_SECONDS = 5;

export const WEBHOOK_REQUIRED_CLAIMS = ['sub', 'aud', 'exp', 'jti', 'htm', 'htb_s256'] as const;

class KeyLookupRefusal extends Error {
  constructor(readonly reason: WebhookJwtRefusal) {
    super(reason);
  }
}

export async function verifyWebhookJwt(
  jwt: string,
  getKey: (kid: string) => Promise<JWK | undefined>,
  expected: WebhookJwtExpectation,
): Promise<VerifyResult<WebhookJwtRefusal>> {
  const maxExp = expected.maxExpSeconds ?? WEBHOOK_JWT_MAX_EXP_SECONDS;
  const keyOf = async (header: JWTHeaderParameters): Promise<JWK> => {
    if (typeof header.kid !== 'string' || header.kid.length === 0) throw new KeyLookupRefusal('kid-missing');
    const jwk = await getKey(header.kid);
    if (jwk === undefined) throw new KeyLookupRefusal('kid-unknown');
    // A JWKS entry that names its alg is bound to it (RFC 7517 §4.4): no swapping RS256 for PS256 etc.
    if (jwk.alg !== undefined && jwk.alg !== header.alg) throw new KeyLookupRefusal('key-alg-mismatch');
    return jwk;
  };
  const verified = await verifiedClaims(
    jwt,
    () =>
      jwtVerify(jwt, keyOf, {
        // The allowlist is what refuses "none" and HS256 (algorithm confusion) before any key is used.
        algorithms: [...SIGNING_ALGS],
        subject: expected.baseUrl,
        audience: expected.webhookUrl,
        requiredClaims: [...WEBHOOK_REQUIRED_CLAIMS],
        currentDate: new Date(expected.now * 1000),
        clockTolerance: WEBHOOK_JWT_SKEW_SECONDS,
      }),
    refusalOf,
  );
  if (!verified.ok) return verified;
  const payload = verified.claims;
  // §5.4 names one audience (idempotency is per listener, so a token for two could be replayed on the other).
  const bounds = audienceAndLifetimeRefusal(payload, { audience: 'the listener URL', now: expected.now, maxExpSeconds: maxExp, skewSeconds: WEBHOOK_JWT_SKEW_SECONDS });
  if (bounds) return bounds;
  if (payload.jti !== expected.eventId) return { ok: false, reason: 'jti-mismatch' };
  if (payload.htm !== 'POST') return { ok: false, reason: 'htm-mismatch' };
  if (payload.htb_s256 !== sha256Base64Url(expected.body)) return { ok: false, reason: 'htb-mismatch' };
  return { ok: true };
}

function refusalOf(error: unknown): JwtRefusal<WebhookJwtRefusal> {
  if (error instanceof KeyLookupRefusal) return { reason: error.reason };
  return joseRefusal<WebhookJwtRefusal>(error, (claim, reason) => {
    // Every claim of §5.4 is required: a missing one is reported as such, whichever it is.
    if (reason === 'missing') return { reason: 'claim-missing', detail: claim };
    if (claim === 'exp') return { reason: 'exp-invalid' };
    // A NumericDate of the wrong JSON type is malformed, not "not yet valid" or "expired".
    if (reason === 'invalid') return { reason: 'claim-invalid', detail: claim };
    return undefined;
  });
}
