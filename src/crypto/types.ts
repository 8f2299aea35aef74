/** Types other folders use without importing jose themselves. */
export type { JWK } from 'jose';
export type { JwtAlg, SigningJwk } from '../profile/types.js';

/** Verification outcome of the reference implementation's verifiers; `reason` is a stable code. */
export type VerifyResult<Reason extends string> = { ok: true } | { ok: false; reason: Reason; detail?: string };
