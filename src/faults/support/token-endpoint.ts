/**
 * Token-endpoint helpers for faults: reading the form, finding the tenant's credential, judging a client
 * assertion with the reference's own verifier (so a fault can ignore exactly one of its refusals), and
 * minting a token into the reference's token store the way the token endpoint does (so a fault that
 * "accepts" a request the reference refuses issues a token the API really honours).
 */
import { randomBytes } from 'node:crypto';
import { verifyClientAssertion, type AssertionRefusal } from '../../crypto/client-assertion.js';
import { decodeJwtParts, type DecodedJwt } from '../../crypto/decode.js';
import type { VerifyResult } from '../../crypto/types.js';
import { createAddressMatcher } from '../../reference/cidr.js';
import { credentialExpiry, sha256Url } from '../../reference/credentials.js';
import { mediaType } from '../../reference/http.js';
import type { ReferenceRequest, ReferenceResponse } from '../../reference/types.js';
import type { Tenant, TenantCredential } from '../../tenant/types.js';
import { json } from './http.js';
import type { FaultEnv } from '../types.js';
import { CLIENT_ASSERTION_MAX_EXP_SECONDS } from '../../spec-numbers.js';

export const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** The form of a token request, or undefined when the body is not a form. */
export function tokenForm(request: ReferenceRequest): URLSearchParams | undefined {
  if (mediaType(request) !== 'application/x-www-form-urlencoded') return undefined;
  return new URLSearchParams(request.body.toString('utf8'));
}

/** The request with this form as its body (and the form content type). */
export function withForm(request: ReferenceRequest, form: URLSearchParams): ReferenceRequest {
  return {
    ...request,
    headers: { ...request.headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: Buffer.from(form.toString(), 'utf8'),
  };
}

export function credentials(tenant: Tenant): TenantCredential[] {
  return Object.values(tenant.credentials);
}

export function credentialById(tenant: Tenant, clientId: string | null): TenantCredential | undefined {
  return clientId === null ? undefined : credentials(tenant).find((credential) => credential.clientId === clientId);
}

/** Which grant a form uses, as the endpoint would read it. */
export function grantOf(form: URLSearchParams): 'secret' | 'assertion' | 'none' {
  if (form.has('client_assertion')) return 'assertion';
  if (form.has('client_secret')) return 'secret';
  return 'none';
}

/** The reference's verdict on an assertion for a credential at `now`. */
export function assertionVerdict(tenant: Tenant, credential: TenantCredential, assertion: string, now: number): Promise<VerifyResult<AssertionRefusal>> {
  return verifyClientAssertion(assertion, {
    clientId: credential.clientId,
    publicJwk: credential.config.publicJwk,
    tenantDomain: tenant.tenantDomain,
    now,
    maxLifetimeSeconds: CLIENT_ASSERTION_MAX_EXP_SECONDS,
  });
}

export function decodeAssertion(form: URLSearchParams): DecodedJwt | undefined {
  const assertion = form.get('client_assertion');
  return assertion === null ? undefined : decodeJwtParts(assertion);
}

/**
 * Issues a token for `clientId` as the token endpoint does: a random value whose hash goes into the token
 * store with its expiry, answered with the RFC 6749 §5.1 body and no-store headers.
 */
export function mintToken(env: FaultEnv, clientId: string, ttlSeconds = 3600): ReferenceResponse {
  const { tokenStore, clock } = env.ports();
  const now = clock.now();
  const accessToken = randomBytes(32).toString('base64url');
  tokenStore.put(sha256Url(accessToken), { clientId, expiresAt: now + ttlSeconds }, now);
  return json(200, { access_token: accessToken, token_type: 'Bearer', expires_in: ttlSeconds }, { 'cache-control': 'no-store', pragma: 'no-cache' });
}

/** A valid bearer value for the primary credential: what a fault uses to let an unauthenticated call through. */
export function mintBearer(env: FaultEnv): string {
  const { tokenStore, clock } = env.ports();
  const now = clock.now();
  const accessToken = randomBytes(32).toString('base64url');
  tokenStore.put(sha256Url(accessToken), { clientId: env.tenant.credentials.primary.clientId, expiresAt: now + 300 }, now);
  return accessToken;
}

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** An RFC 6749 §5.2 refusal as the reference writes it. */
export function refusal(status: 400 | 401, error: string, description: string): ReferenceResponse {
  return json(status, { error, error_description: description }, NO_STORE);
}

/**
 * What the token endpoint does once a client has authenticated: refuse a credential past its lifespan or
 * used from outside its CIDRs, else issue a token. A fault that authenticates a client the reference would
 * not still applies these rules, so it breaks only what it means to.
 */
export function issueAfterAuthentication(env: FaultEnv, credential: TenantCredential, request: ReferenceRequest): ReferenceResponse {
  const now = env.ports().clock.now();
  if (credentialExpiry(credential.config) <= now) return refusal(401, 'invalid_client', 'the credential has expired');
  if (!createAddressMatcher(credential.config.allowedCidrs).allows(request.remoteAddress)) {
    return refusal(401, 'invalid_client', 'the credential may not be used from this address');
  }
  return mintToken(env, credential.clientId);
}
