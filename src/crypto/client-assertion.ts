/**
 * Client assertions (service.md §5.3, ruling 3): building every variant the token suite sends, and the
 * verifier the reference implementation uses.
 */
import { jwtVerify } from 'jose';
import { parseClientId } from './client-id.js';
import { newEd25519Jwk } from './ed25519.js';
import { parseClientSecret } from './client-secret.js';
import { audienceAndLifetimeRefusal, compactJws, joseRefusal, verifiedClaims, type ForgedForms, type JwtRefusal } from './jws.js';
import type { JWK, VerifyResult } from './types.js';
import { CLIENT_ASSERTION_MAX_EXP_SECONDS } from '../spec-numbers.js';

/**
 * Claim-level breakage of a client assertion; each maps to one ruling-3 case. `hs256Key`: e.g. empty, what
 * a `kid` naming /dev/null yields.
 */
export interface AssertionOptions extends Omit<ForgedForms, 'unsigned'> {
  /** Seconds from now; default +120. `null` leaves `exp` out. */
  expIn?: number | null;
  /** Seconds from now for `nbf`; default -120. `null` leaves it out. */
  nbfIn?: number | null;
  /** `iat`: default now; `null` leaves it out. */
  iat?: number | null;
  /** Default: the tenant domain as a string. */
  aud?: string | string[];
  iss?: string;
  sub?: string;
  /** Extra or replacement header parameters (e.g. `kid`, `typ`, `nonce`). */
  header?: Record<string, unknown>;
  /** Extra claims (e.g. `jti`, `nonce`). */
  claims?: Record<string, unknown>;
  /** Sign with another Ed25519 key than the secret's. */
  otherKey?: boolean;
  /** Unsigned JWT with `alg: none`. */
  algNone?: boolean;
  /** Sign with this private JWK (e.g. an attacker's key also embedded in the header); `header.alg` must fit it. */
  key?: Record<string, unknown>;
  /** Seconds the clock reads; default: the target's clock (hook) or local time. */
  now?: number;
}

export interface ClientAssertionInput extends AssertionOptions {
  clientId: string;
  clientSecret: string;
  /** The tenant domain; `aud` unless `options.aud` replaces it. */
  audience: string;
  /** Unix seconds; wins over AssertionOptions.now when both are given. */
  now: number;
}

/** Defaults mirror the official SDKs: nbf = now − 2 min, exp = now + 2 min. */
export const ASSERTION_DEFAULT_EXP_IN = 120;
export const ASSERTION_DEFAULT_NBF_IN = -120;

export async function buildClientAssertion(input: ClientAssertionInput): Promise<string> {
  const { now } = input;
  const claims: Record<string, unknown> = {
    iss: input.iss ?? input.clientId,
    sub: input.sub ?? input.clientId,
    aud: input.aud ?? input.audience,
  };
  if (input.iat !== null) claims.iat = input.iat ?? now;
  const nbfIn = input.nbfIn === undefined ? ASSERTION_DEFAULT_NBF_IN : input.nbfIn;
  if (nbfIn !== null) claims.nbf = now + nbfIn;
  const expIn = input.expIn === undefined ? ASSERTION_DEFAULT_EXP_IN : input.expIn;
  if (expIn !== null) claims.exp = now + expIn;
  Object.assign(claims, input.claims ?? {});

  const header: Record<string, unknown> = { alg: 'EdDSA', ...(input.header ?? {}) };
  return compactJws(header, claims, { ...input, unsigned: input.algNone === true }, () => {
    if (input.key !== undefined) return input.key as JWK;
    if (input.otherKey) return newEd25519Jwk() as JWK;
    // The secret's JWK may carry a kid; the header only gets one when the caller asks (ruling 3: optional).
    return parseClientSecret(input.clientSecret).privateJwk;
  });
}

export type AssertionRefusal =
  | 'malformed'
  | 'alg-not-allowed'
  | 'bad-signature'
  | 'iss-mismatch'
  | 'sub-mismatch'
  | 'aud-mismatch'
  | 'exp-missing'
  | 'exp-invalid'
  | 'expired'
  | 'exp-too-far'
  | 'nbf-in-future'
  | 'claim-invalid'
  | 'duplicate-member';

export interface AssertionExpectation {
  clientId: string;
  publicJwk: JWK;
  tenantDomain: string;
  /** Unix seconds: the verifier's clock (injected, so the reference's test clock applies). */
  now: number;
  /** Longest accepted `exp - now`; default 300 (service.md §5.3: "within five minutes"). */
  maxLifetimeSeconds?: number;
}

/**
 * Clock skew tolerated on `exp`, `nbf` and the lifetime bound. Five seconds absorbs a client's clock being a
 * little ahead or behind and the second-granularity rounding of both sides, while the harness's own probes
 * (exp 10 min ahead, exp in the past by minutes) stay far outside it.
 */
export const ASSERTION_SKEW_SECONDS = 5;

export async function verifyClientAssertion(
  jwt: string,
  expected: AssertionExpectation,
): Promise<VerifyResult<AssertionRefusal>> {
  const maxLifetime = expected.maxLifetimeSeconds ?? CLIENT_ASSERTION_MAX_EXP_SECONDS;
  const verified = await verifiedClaims(
    jwt,
    () =>
      jwtVerify(jwt, expected.publicJwk, {
        // Only EdDSA: the secret holds an Ed25519 key; "none" and everything else is refused here.
        algorithms: ['EdDSA'],
        issuer: expected.clientId,
        subject: expected.clientId,
        audience: expected.tenantDomain,
        requiredClaims: ['exp'],
        currentDate: new Date(expected.now * 1000),
        clockTolerance: ASSERTION_SKEW_SECONDS,
      }),
    refusalOf,
  );
  if (!verified.ok) return verified;
  // Ruling 3 accepts a string or a one-element array.
  return audienceAndLifetimeRefusal(verified.claims, { audience: 'the tenant domain', now: expected.now, maxExpSeconds: maxLifetime, skewSeconds: ASSERTION_SKEW_SECONDS }) ?? { ok: true };
}

function refusalOf(error: unknown): JwtRefusal<AssertionRefusal> {
  return joseRefusal<AssertionRefusal>(error, (claim, reason) => {
    if (claim === 'exp') return { reason: reason === 'missing' ? 'exp-missing' : 'exp-invalid' };
    if (claim === 'iss') return { reason: 'iss-mismatch' };
    return undefined;
  });
}

/** The tenant domain a Client ID implies (ruling 2): its hostname. */
export function tenantDomainOf(clientId: string): string {
  return parseClientId(clientId).hostname;
}
