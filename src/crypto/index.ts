/**
 * Everything cryptographic the harness does: credential formats, client assertions, webhook signatures
 * (HMAC and JWT), signing keys and local certificates. The only folder that imports jose and
 * @peculiar/x509; other folders use these exports.
 *
 * Modules that only need node:crypto (uuid, encoding, hmac, client-id, client-secret) can be imported
 * directly by hot paths to avoid loading jose.
 */
export type { JWK, JwtAlg, SigningJwk, VerifyResult } from './types.js';
export { fromBase64UrlStrict, sha256Base64Url, toBase64Url } from './encoding.js';
export { isUuidV4, randomUuidV4 } from './uuid.js';
export { ed25519PublicX, newEd25519Jwk, type Ed25519Jwk } from './ed25519.js';
export { ClientIdError, isHostname, parseClientId, type ClientIdReason, type ParsedClientId } from './client-id.js';
export {
  CLIENT_SECRET_PREFIX,
  ClientSecretError,
  generateClientSecret,
  lintClientSecret,
  parseClientSecret,
  type ClientSecretReason,
  type GenerateClientSecretOptions,
  type ParsedClientSecret,
  type SecretLint,
} from './client-secret.js';
export {
  ASSERTION_DEFAULT_EXP_IN,
  ASSERTION_DEFAULT_NBF_IN,
  ASSERTION_SKEW_SECONDS,
  buildClientAssertion,
  tenantDomainOf,
  verifyClientAssertion,
  type AssertionExpectation,
  type AssertionRefusal,
  type ClientAssertionInput,
} from './client-assertion.js';
export {
  HMAC_DEFAULT_ORDER,
  generateHmacSecret,
  hmacSign,
  hmacVerify,
  type HmacPart,
  type HmacSignInput,
} from './hmac.js';
export {
  PRIVATE_JWK_PARAMS,
  SIGNING_ALGS,
  buildJwks,
  checkSigningJwk,
  generateSigningKey,
  privateJwkValues,
  toPublicJwk,
  type KeyProblem,
} from './signing-keys.js';
export {
  WEBHOOK_JWT_SKEW_SECONDS,
  WEBHOOK_REQUIRED_CLAIMS,
  buildWebhookClaims,
  signWebhookJwt,
  verifyWebhookJwt,
  type SignWebhookJwtInput,
  type WebhookClaimsInput,
  type WebhookJwtExpectation,
  type WebhookJwtRefusal,
} from './webhook-jwt.js';
export { decodeJwtParts, type DecodedJwt } from './decode.js';
export {
  P256_ORDER,
  SIGNATURE_TAMPERS,
  duplicateClaims,
  p1363ToDer,
  spliceSignature,
  tamperSignature,
  tamperSignatureBytes,
  type SignatureTamper,
} from './jws-tamper.js';
export { hasDuplicateMember } from '../json-duplicates.js';
export { jwsHasDuplicateMember } from './jws-duplicates.js';
export type { PemPair, SelfSignedSigningKey, ServerCertificateOptions } from './certificates.js';

// Loaded on first use (certificates-lazy.ts says why).
export { createLocalCa, createSelfSignedSigningKey, issueServerCertificate } from './certificates-lazy.js';
