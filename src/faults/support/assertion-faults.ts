/**
 * The two shapes of client-assertion faults. `ignoreAssertionRefusal`: the service's verifier skips one rule,
 * emulated by letting through exactly the assertions the reference refuses for that rule (and nothing
 * else). `refuseAssertion`: the service's verifier is stricter than §5.3, refusing valid assertions of a
 * given form before the reference sees them.
 */
import type { AssertionRefusal } from '../../crypto/client-assertion.js';
import type { DecodedJwt } from '../../crypto/decode.js';
import type { Tenant } from '../../tenant/types.js';
import type { FaultDefinition } from '../types.js';
import { defineFault, type FaultSpec } from './define.js';
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

type AssertionFaultSpec = Omit<FaultSpec, 'wrap' | 'ports' | 'issue' | 'limits' | 'area'>;

export function ignoreAssertionRefusal(spec: AssertionFaultSpec & { ignores: (reason: AssertionRefusal, decoded: DecodedJwt, tenant: Tenant) => boolean }): FaultDefinition {
  return defineFault({
    ...spec,
    area: 'tokens',
    wrap: (handler, env) => async (request) => {
      const response = await handler(request);
      if (response.status !== 401 || routeOf(request).kind !== 'token') return response;
      const form = tokenForm(request);
      const assertion = form?.get('client_assertion');
      if (!form || !assertion || form.get('client_assertion_type') !== ASSERTION_TYPE) return response;
      const credential = credentialById(env.tenant, form.get('client_id'));
      if (credential === undefined) return response;
      const verdict = await assertionVerdict(env.tenant, credential, assertion, env.ports().clock.now());
      if (verdict.ok || !spec.ignores(verdict.reason, decodeAssertion(form)!, env.tenant)) return response;
      return issueAfterAuthentication(env, credential, request);
    },
  });
}

export function refuseAssertion(spec: AssertionFaultSpec & { refuses: (decoded: DecodedJwt) => boolean; why: string }): FaultDefinition {
  return defineFault({
    ...spec,
    area: 'tokens',
    wrap: (handler) => async (request) => {
      if (routeOf(request).kind === 'token') {
        const decoded = tokenForm(request) && decodeAssertion(tokenForm(request)!);
        if (decoded && spec.refuses(decoded)) return refusal(401, 'invalid_client', `client assertion refused (${spec.why})`);
      }
      return handler(request);
    },
  });
}
