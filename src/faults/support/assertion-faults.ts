/**
 * The two shapes of client-assertion faults. `ignoreAssertionRefusal`: the service's verifier skips one rule,
 * emulated by letting through exactly the assertions the reference refuses for that rule (and nothing
 * else). `refuseAssertion`: the service's verifier is stricter than §5.3, refusing valid assertions of a
 * given form before the reference sees them.
 */
import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import type { AssertionRefusal } from '../../crypto/client-assertion.js';
import { parseClientSecret } from '../../crypto/client-secret.js';
import { decodeJwtParts, type DecodedJwt } from '../../crypto/decode.js';
import { signCompact } from '../../crypto/jws.js';
import type { JWK } from '../../crypto/types.js';
import type { Tenant, TenantCredential } from '../../tenant/types.js';
import type { FaultBehaviour, FaultEnv } from '../types.js';
import { routeOf } from './http.js';
import {
  ASSERTION_TYPE,
  assertionVerdict,
  credentialById,
  decodeAssertion,
  issueAfterAuthentication,
  refusal,
  tokenForm,
} from './token-endpoint.js';

export function ignoreAssertionRefusal({ ignores }: { ignores: (reason: AssertionRefusal, decoded: DecodedJwt, tenant: Tenant) => boolean }): FaultBehaviour {
  // Skipping one rule is accepting exactly the assertions the reference refused for that rule.
  return acceptAssertion({ accepts: ({ verdict, decoded, env }) => ignores(verdict.reason, decoded, env.tenant) });
}

export function refuseAssertion({ refuses, why }: { refuses: (decoded: DecodedJwt) => boolean; why: string }): FaultBehaviour {
  return {
    wrap: (handler) => async (request) => {
      if (routeOf(request).kind === 'token') {
        const decoded = tokenForm(request) && decodeAssertion(tokenForm(request)!);
        if (decoded && refuses(decoded)) return refusal(401, 'invalid_client', `client assertion refused (${why})`);
      }
      return handler(request);
    },
  };
}

/** What {@link acceptAssertion}'s rule sees: the assertion the reference refused, for a known credential. */
export interface AssertionCheck {
  env: FaultEnv;
  credential: TenantCredential;
  assertion: string;
  decoded: DecodedJwt;
  verdict: { reason: AssertionRefusal; detail?: string };
}

/**
 * The service's verifier has another rule than §5.3: `accepts` decides, for an assertion the reference
 * refused, whether the faulty verifier would have let it through; if so the client authenticated and the
 * token endpoint carries on (lifespan, CIDRs, a token).
 */
export function acceptAssertion({ accepts, observe }: {
  accepts: (check: AssertionCheck) => Promise<boolean> | boolean;
  /** Sees every assertion the endpoint accepted (for faults that remember something about good ones). */
  observe?: (check: Omit<AssertionCheck, 'verdict'>) => void;
}): FaultBehaviour {
  return {
    wrap: (handler, env) => async (request) => {
      const response = await handler(request);
      if (routeOf(request).kind !== 'token') return response;
      if (response.status === 200 && observe) {
        const form = tokenForm(request);
        const assertion = form?.get('client_assertion');
        const credential = credentialById(env.tenant, form?.get('client_id') ?? null);
        if (form && assertion && credential) observe({ env, credential, assertion, decoded: decodeAssertion(form)! });
      }
      if (response.status !== 401) return response;
      const form = tokenForm(request);
      const assertion = form?.get('client_assertion');
      if (!form || !assertion || form.get('client_assertion_type') !== ASSERTION_TYPE) return response;
      const credential = credentialById(env.tenant, form.get('client_id'));
      if (credential === undefined) return response;
      const verdict = await assertionVerdict(env.tenant, credential, assertion, env.ports().clock.now());
      if (verdict.ok) return response;
      const accepted = await accepts({ env, credential, assertion, decoded: decodeAssertion(form)!, verdict });
      return accepted ? issueAfterAuthentication(env, credential, request) : response;
    },
  };
}

/** Whether the assertion's signature verifies with this JWK under its header's `alg`. */
export function assertionSignedBy(assertion: string, jwk: JWK): boolean {
  const [head, body, signature] = assertion.split('.');
  const alg = decodeJwtParts(assertion).header?.alg;
  if (head === undefined || body === undefined || !signature) return false;
  try {
    const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
    const input = Buffer.from(`${head}.${body}`);
    const bytes = Buffer.from(signature, 'base64url');
    if (alg === 'EdDSA') return verify(null, input, key, bytes);
    if (alg === 'ES256') return verify('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, bytes);
    return false;
  } catch {
    return false;
  }
}

/**
 * The reference's verdict on the assertion's claims alone (`payload`, default the decoded ones), re-signed
 * with the credential's own key: for faults that skip or replace the signature check.
 */
export async function assertionClaimsPass(check: AssertionCheck, payload = check.decoded.payload): Promise<boolean> {
  if (payload === undefined) return false;
  const key = parseClientSecret(check.credential.clientSecret).privateJwk;
  const resigned = await signCompact({ alg: 'EdDSA' }, payload, key as JWK);
  return (await assertionVerdict(check.env.tenant, check.credential, resigned, check.env.ports().clock.now())).ok;
}
