/** Types other folders use without importing jose themselves. */
export type { JWK } from 'jose';
export type JwtAlg = 'RS256' | 'ES256' | 'EdDSA';

/** A private JWK as a target profile lists it: `kid` and `alg` are required by the schema. */
export interface SigningJwk {
  kty: string;
  kid: string;
  alg: JwtAlg;
  [param: string]: unknown;
}

/** Verification outcome of the reference implementation's verifiers; `reason` is a stable code. */
export type VerifyResult<Reason extends string> = { ok: true } | { ok: false; reason: Reason; detail?: string };
