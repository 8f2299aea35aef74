/**
 * `POST /auth/v1/token` (service.md §4.1, §5.3; rulings 3–5, 7). Client credentials grant, with either the
 * Client Secret (`client_secret`) or a signed EdDSA assertion (`client_assertion`), in a form body only.
 *
 * Refusals follow RFC 6749 §5.2: 400 `invalid_request` (malformed, a parameter missing or repeated, a
 * JSON body, two authentication methods), 400 `unsupported_grant_type`, 401 `invalid_client` (unknown
 * client, wrong secret, bad assertion, expired credential, source address outside the credential's CIDRs:
 * RFC 6749 groups every "this client may not authenticate" case there). Authentication is checked before
 * lifespan and address, so those two refusals are only visible to someone who holds the secret.
 */
import { randomBytes } from 'node:crypto';
import { verifyClientAssertion } from '../crypto/client-assertion.js';
import { secretMatches, sha256Url, type CredentialEntry } from './credentials.js';
import { errorResponse, json, mediaType, methodNotAllowed } from './http.js';
import type { ReferenceDeps, ReferenceRequest, ReferenceResponse } from './types.js';
import { CLIENT_ASSERTION_MAX_EXP_SECONDS } from '../spec-numbers.js';

export const TOKEN_BODY_LIMIT = 16 * 1024;
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

export interface TokenEndpointContext {
  credentials: Map<string, CredentialEntry>;
  tenantDomain: string;
  tokenTtlSeconds: number;
  deps: Pick<ReferenceDeps, 'clock' | 'tokenStore'>;
}

function refuse(status: 400 | 401, error: string, description: string): ReferenceResponse {
  // No WWW-Authenticate on 401: RFC 6749 §5.2 asks for one only when the client used the Authorization
  // header, which this endpoint refuses.
  return errorResponse(status, error, description, NO_STORE);
}

export async function handleToken(request: ReferenceRequest, context: TokenEndpointContext): Promise<ReferenceResponse> {
  if (request.method !== 'POST') return methodNotAllowed('POST');
  if (request.bodyExceeded) return refuse(400, 'invalid_request', `the body is larger than ${TOKEN_BODY_LIMIT} bytes`);
  if (mediaType(request) !== 'application/x-www-form-urlencoded') {
    return refuse(400, 'invalid_request', 'send the parameters as application/x-www-form-urlencoded');
  }
  // §4.1: credentials go in the body, never in headers.
  if (/^\s*basic\s/i.test(request.headers.authorization ?? '')) {
    return refuse(400, 'invalid_request', 'client credentials belong in the form body, not in the Authorization header');
  }
  const form = new URLSearchParams(request.body.toString('utf8'));
  const seen = new Set<string>();
  for (const name of form.keys()) {
    if (seen.has(name)) return refuse(400, 'invalid_request', `parameter ${name} is repeated`);
    seen.add(name);
  }
  const grantType = form.get('grant_type');
  if (!grantType) return refuse(400, 'invalid_request', 'grant_type is missing');
  if (grantType !== 'client_credentials') return refuse(400, 'unsupported_grant_type', 'only client_credentials is supported');
  const clientId = form.get('client_id');
  if (!clientId) return refuse(400, 'invalid_request', 'client_id is missing');
  const secret = form.get('client_secret');
  const assertion = form.get('client_assertion');
  const assertionType = form.get('client_assertion_type');
  if (secret !== null && (assertion !== null || assertionType !== null)) {
    return refuse(400, 'invalid_request', 'use either client_secret or client_assertion, not both');
  }
  if (assertion !== null && assertionType !== ASSERTION_TYPE) {
    return refuse(400, 'invalid_request', `client_assertion_type must be ${ASSERTION_TYPE}`);
  }
  if (assertion === null && assertionType !== null) return refuse(400, 'invalid_request', 'client_assertion is missing');

  const entry = context.credentials.get(clientId);
  const now = context.deps.clock.now();
  if (secret === null && assertion === null) return refuse(401, 'invalid_client', 'no client authentication in the request');
  if (entry === undefined) return refuse(401, 'invalid_client', 'client authentication failed');
  if (secret !== null) {
    if (!secretMatches(secret, entry.credential.secretSha256)) return refuse(401, 'invalid_client', 'client authentication failed');
  } else {
    const verdict = await verifyClientAssertion(assertion as string, {
      clientId,
      publicJwk: entry.credential.publicJwk,
      tenantDomain: context.tenantDomain,
      now,
      maxLifetimeSeconds: CLIENT_ASSERTION_MAX_EXP_SECONDS,
    });
    if (!verdict.ok) return refuse(401, 'invalid_client', `client assertion refused (${verdict.reason})`);
  }
  if (entry.expiresAt <= now) return refuse(401, 'invalid_client', 'the credential has expired');
  if (!entry.addresses.allows(request.remoteAddress)) {
    return refuse(401, 'invalid_client', 'the credential may not be used from this address');
  }

  // A token never outlives its credential.
  const expiresIn = Math.max(1, Math.floor(Math.min(context.tokenTtlSeconds, entry.expiresAt - now)));
  const accessToken = randomBytes(32).toString('base64url');
  context.deps.tokenStore.put(sha256Url(accessToken), { clientId, expiresAt: now + expiresIn }, now);
  return json(200, { access_token: accessToken, token_type: 'Bearer', expires_in: expiresIn }, NO_STORE);
}
