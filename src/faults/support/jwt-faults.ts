/**
 * JWT faults: the service verifies the webhook JWT by another rule. `jwtRule` emulates the rule in front of
 * the reference: a JWT the faulty rule accepts is replaced by a valid one for the same event and body
 * (signed with the listener's own key), a JWT it refuses by an invalid one, and everything else passes
 * unchanged, so the reference keeps its order of checks and does the idempotency and the run.
 */
import { createHmac, createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { decodeJwtParts, type DecodedJwt } from '../../crypto/decode.js';
import type { JWK, VerifyResult } from '../../crypto/types.js';
import { signWebhookJwt, type WebhookJwtRefusal } from '../../crypto/webhook-jwt.js';
import type { ReferenceRequest } from '../../reference/types.js';
import type { TenantJwtListener } from '../../tenant/types.js';
import type { FaultBehaviour, FaultEnv } from '../types.js';
import { bearerToken, withHeaders } from './http.js';
import { jwtVerdict, listedKey, signedJwt, webhookFault } from './webhook-faults.js';

export interface JwtCheck {
  env: FaultEnv;
  listener: TenantJwtListener;
  request: ReferenceRequest;
  /** The compact JWT of `Authorization: Bearer`; undefined when there is none in that form. */
  jwt: string | undefined;
  decoded: DecodedJwt | undefined;
  /** The reference's verdict on `jwt` (undefined without one). */
  verdict: VerifyResult<WebhookJwtRefusal> | undefined;
}

/** `accept`: let through; `refuse`: 401; `reference`: leave the decision to the reference. */
export type JwtDecision = 'accept' | 'refuse' | 'reference';

/** `decide`: what the faulty rule does with the request's JWT. */
export function jwtRule({ decide }: { decide: (check: JwtCheck) => Promise<JwtDecision> | JwtDecision }): FaultBehaviour {
  return webhookFault({
    handle: async ({ request, known, next, env }) => {
      if (known?.method !== 'JWT') return next(request);
      const jwt = bearerToken(request);
      const check: JwtCheck = {
        env,
        listener: known.listener,
        request,
        jwt,
        decoded: jwt === undefined ? undefined : decodeJwtParts(jwt),
        verdict: jwt === undefined ? undefined : await jwtVerdict(env, known.listener, request, jwt),
      };
      const decision = await decide(check);
      if (decision === 'accept') return next(await signedJwt(env, known.listener, request));
      if (decision === 'refuse') return next(withHeaders(request, { authorization: 'Bearer refused.by.rule' }));
      return next(request);
    },
  });
}

/** Accepts exactly the JWTs the reference refuses for one of `reasons` (a rule the faulty verifier skips). */
export function ignoring(reasons: (verdict: { reason: WebhookJwtRefusal; detail?: string }) => boolean): (check: JwtCheck) => JwtDecision {
  return ({ verdict }) => (verdict !== undefined && !verdict.ok && reasons(verdict) ? 'accept' : 'reference');
}

/**
 * The reference's verdict on the JWT's claims alone: its payload re-signed with the listener's key named by
 * its `kid` (or the first). For faults that skip the signature but still check claims; `payload` replaces
 * the decoded claims for faults that read them differently (coerced types, first of repeated members).
 */
export async function claimsVerdict(check: JwtCheck, payload = check.decoded?.payload): Promise<VerifyResult<WebhookJwtRefusal> | undefined> {
  if (payload === undefined) return undefined;
  const kid = check.decoded?.header?.kid;
  const key = check.listener.signingKeys.find((candidate) => candidate.kid === kid) ?? check.listener.signingKeys[0];
  if (key === undefined) return undefined;
  const resigned = await signWebhookJwt({ key, claims: payload });
  return jwtVerdict(check.env, check.listener, check.request, resigned);
}

/** HS256 over the JWT's signing input keyed with `key`, base64url: for algorithm-confusion faults. */
export function hs256Signature(jwt: string, key: Buffer): string {
  const input = jwt.split('.').slice(0, 2).join('.');
  return createHmac('sha256', key).update(input).digest('base64url');
}

/**
 * Whether the JWT's signature verifies with this JWK under the JWT's own `alg` (RS256, ES256 or EdDSA), by
 * node:crypto alone: unlike the reference's verifier it needs no `kid`, which is what kid faults skip.
 */
export function signatureValid(jwt: string, jwk: JWK): boolean {
  const [head, body, signature] = jwt.split('.');
  const alg = decodeJwtParts(jwt).header?.alg;
  if (head === undefined || body === undefined || signature === undefined || signature === '') return false;
  try {
    const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
    const input = Buffer.from(`${head}.${body}`);
    const bytes = Buffer.from(signature, 'base64url');
    if (alg === 'EdDSA') return verify(null, input, key, bytes);
    if (alg === 'RS256') return verify('sha256', input, key, bytes);
    if (alg === 'ES256') return verify('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, bytes);
    return false;
  } catch {
    return false;
  }
}

/** Whether the JWT's signature verifies with the listed key its `kid` names (under the header's `alg`). */
export function signedByListedKey(check: JwtCheck): boolean {
  const key = listedKey(check.listener, check.decoded?.header?.kid);
  return check.jwt !== undefined && key !== undefined && signatureValid(check.jwt, key);
}

/** A refused JWT whose signature is the listed key's and whose claims (as given) pass: the faulty accept. */
export async function acceptIfSignedAndClaimsPass(check: JwtCheck, payload = check.decoded?.payload): Promise<JwtDecision> {
  return signedByListedKey(check) && (await claimsVerdict(check, payload))?.ok ? 'accept' : 'reference';
}

/**
 * The top-level members of a JSON object text, first occurrence wins (a first-wins parser's view).
 * Splits at top-level commas and the first top-level colon of each member, skipping strings; undefined
 * when the text is not an object whose pieces parse.
 */
export function firstWinsObject(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined;
  const inner = trimmed.slice(1, -1);
  const members: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i += 1) {
    const c = inner[i];
    if (c === '"') {
      for (i += 1; i < inner.length && inner[i] !== '"'; i += 1) if (inner[i] === '\\') i += 1;
    } else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') depth -= 1;
    else if (c === ',' && depth === 0) {
      members.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  if (inner.trim() !== '') members.push(inner.slice(start));
  const out: Record<string, unknown> = {};
  try {
    for (const member of members) {
      const nameEnd = member.indexOf('":') + 1;
      const name = JSON.parse(member.slice(0, nameEnd)) as string;
      if (!Object.prototype.hasOwnProperty.call(out, name)) out[name] = JSON.parse(member.slice(nameEnd + 1));
    }
  } catch {
    return undefined;
  }
  return out;
}
