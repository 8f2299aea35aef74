/**
 * Compact JWS building blocks. Signing goes through jose; the deliberately broken forms the suites need
 * (unsigned `alg: none`, HS256 keyed with public material) are assembled here because jose refuses to
 * produce them, by design.
 */
import { createHmac } from 'node:crypto';
import { CompactSign, errors } from 'jose';
import { HarnessError } from '../errors.js';
import { toBase64Url } from './encoding.js';
import { jwsHasDuplicateMember } from './jws-duplicates.js';
import { tamperSignature, type SignatureTamper } from './jws-tamper.js';
import type { JWK } from './types.js';

export type Header = Record<string, unknown>;

/** Removes `null`-valued entries: the "remove this" convention of every override map. */
export function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record)) if (value !== null) out[name] = value;
  return out;
}

/** A claim set as an object (serialised with JSON.stringify) or as the exact JSON text to sign. */
export type Payload = Record<string, unknown> | string;

function payloadText(payload: Payload): string {
  return typeof payload === 'string' ? payload : JSON.stringify(payload);
}

/**
 * Signs `payload` with `header.alg` (which must be set) using a private JWK. Extensions a `crit` header
 * lists are declared understood to jose so that it lets the harness produce them (a verifier that does not
 * understand them must refuse the token: RFC 7515 §4.1.11).
 */
export async function signCompact(header: Header, payload: Payload, key: JWK | Uint8Array): Promise<string> {
  if (typeof header.alg !== 'string') {
    throw new HarnessError('KEY_INVALID', 'A JWS header needs an "alg" to be signed.');
  }
  const crit = Array.isArray(header.crit)
    ? Object.fromEntries(header.crit.filter((name): name is string => typeof name === 'string').map((name) => [name, true]))
    : undefined;
  try {
    return await new CompactSign(Buffer.from(payloadText(payload)))
      .setProtectedHeader(header as { alg: string })
      .sign(key, crit === undefined ? undefined : { crit });
  } catch (error) {
    // jose's message names algorithms and key types only, never key material.
    const message = error instanceof Error ? error.message : String(error);
    throw new HarnessError('KEY_INVALID', `Cannot sign with this key and alg "${header.alg}": ${message}`, { cause: error });
  }
}

/** `header.payload.` with an empty signature: RFC 7519 §6 unsecured JWT (alg forced to "none"). */
export function unsignedCompact(header: Header, payload: Payload): string {
  return `${toBase64Url(JSON.stringify({ ...header, alg: 'none' }))}.${toBase64Url(payloadText(payload))}.`;
}

/**
 * HS256 over arbitrary key bytes. jose would accept a Uint8Array too, but doing it with node:crypto keeps
 * the forged token independent of any key-type checks a jose version might add.
 */
export function hs256Compact(header: Header, payload: Payload, keyBytes: Buffer): string {
  const input = `${toBase64Url(JSON.stringify({ ...header, alg: 'HS256' }))}.${toBase64Url(payloadText(payload))}`;
  return `${input}.${createHmac('sha256', keyBytes).update(input).digest('base64url')}`;
}

/** The forms both JWT builders (client assertions, webhook JWTs) offer besides a plain signature. */
export interface ForgedForms {
  /** The exact JSON text signed instead of JSON.stringify(claims) (e.g. with a repeated member). */
  serialize?: (claims: Record<string, unknown>) => string;
  /** Unsigned, `alg: none`. */
  unsigned?: boolean;
  /** HS256 keyed with these bytes instead of the key's signature. */
  hs256Key?: Uint8Array;
  /** Breaks the signature after signing. */
  tamper?: SignatureTamper;
}

/**
 * A compact JWS of `claims` in the asked form: unsigned, HS256 over given bytes, or signed by the key
 * `key()` returns (asked for only then, so a builder checks or makes its key only when it signs) and then
 * tampered with.
 */
export async function compactJws(header: Header, claims: Record<string, unknown>, forms: ForgedForms, key: () => JWK): Promise<string> {
  const payload = forms.serialize ? forms.serialize(claims) : claims;
  if (forms.unsigned) return unsignedCompact(header, payload);
  if (forms.hs256Key !== undefined) return hs256Compact(header, payload, Buffer.from(forms.hs256Key));
  const token = await signCompact(header, payload, key());
  return forms.tamper === undefined ? token : tamperSignature(token, forms.tamper);
}

/** Refusals both JWT verifiers (client assertions, webhook JWTs) name the same way. */
export type SharedJwtRefusal =
  | 'malformed'
  | 'alg-not-allowed'
  | 'bad-signature'
  | 'expired'
  | 'sub-mismatch'
  | 'aud-mismatch'
  | 'nbf-in-future'
  | 'claim-invalid';

export interface JwtRefusal<R extends string> {
  reason: R | SharedJwtRefusal;
  detail?: string;
}

/**
 * The first steps of both verifiers: a repeated header parameter or claim is refused whichever copy a
 * parser would keep (RFC 7519 §4), before any key lookup; then `verify` (jose's jwtVerify with the
 * verifier's key and rules) gives the claims, or `refusalOf` names why it threw.
 */
export async function verifiedClaims<R extends string>(
  jwt: string,
  verify: () => Promise<{ payload: unknown }>,
  refusalOf: (error: unknown) => JwtRefusal<R>,
): Promise<{ ok: true; claims: Record<string, unknown> } | ({ ok: false } & JwtRefusal<R | 'duplicate-member'>)> {
  if (jwsHasDuplicateMember(jwt)) return { ok: false, reason: 'duplicate-member' };
  try {
    return { ok: true, claims: (await verify()).payload as Record<string, unknown> };
  } catch (error) {
    return { ok: false, ...refusalOf(error) };
  }
}

/**
 * Maps an error thrown by jose's `jwtVerify` to a refusal. The verifiers differ only in some claim
 * failures (which claims are required, how a missing one is reported), so `claimRefusal` is asked first
 * about a failed claim; whatever it leaves (undefined) gets the shared name.
 */
export function joseRefusal<R extends string>(
  error: unknown,
  claimRefusal: (claim: string, reason: string) => JwtRefusal<R> | undefined,
): JwtRefusal<R> {
  if (error instanceof errors.JWTExpired) return { reason: 'expired' };
  if (error instanceof errors.JWTClaimValidationFailed) {
    const { claim, reason } = error;
    const specific = claimRefusal(claim, reason);
    if (specific !== undefined) return specific;
    if (claim === 'sub') return { reason: 'sub-mismatch' };
    if (claim === 'aud') return { reason: 'aud-mismatch' };
    if (claim === 'nbf') return { reason: 'nbf-in-future' };
    return { reason: 'claim-invalid', detail: `${claim}: ${reason}` };
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return { reason: 'alg-not-allowed' };
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return { reason: 'bad-signature' };
  return { reason: 'malformed', detail: error instanceof Error ? error.message : String(error) };
}

/**
 * The bounds jose leaves to the verifier once it accepted a token: jose takes any `aud` array that holds the
 * expected audience, and the spec names one (an array of one is the same token; a token addressed to two
 * recipients could be replayed on the other); and `exp` may lie at most `maxExpSeconds` ahead (plus skew).
 */
export function audienceAndLifetimeRefusal(
  payload: Record<string, unknown>,
  bounds: { audience: string; now: number; maxExpSeconds: number; skewSeconds: number },
): { ok: false; reason: 'aud-mismatch' | 'exp-too-far'; detail: string } | undefined {
  if (Array.isArray(payload.aud) && payload.aud.length !== 1) {
    return { ok: false, reason: 'aud-mismatch', detail: `aud array must hold exactly ${bounds.audience}` };
  }
  if ((payload.exp as number) > bounds.now + bounds.maxExpSeconds + bounds.skewSeconds) {
    return { ok: false, reason: 'exp-too-far', detail: `exp more than ${bounds.maxExpSeconds} s ahead` };
  }
  return undefined;
}
