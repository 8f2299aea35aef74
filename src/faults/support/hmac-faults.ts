/**
 * HMAC faults: the service verifies Webhook-Signature by another rule. `hmacRule` emulates the rule in front
 * of the reference: a signature the faulty rule accepts is replaced by the valid one, a signature it refuses
 * by an invalid one, so the reference still applies every other check in its own order (the 400s before
 * authentication, idempotency and the run after it). The rule signs with the crypto room's `hmacSign`, whose
 * options (`hex`, `separator`, `order`, `decodedKey`, …) are the usual ways of getting §5.4 wrong.
 */
import { hmacSign, type HmacSignInput } from '../../crypto/hmac.js';
import type { TenantHmacListener } from '../../tenant/types.js';
import type { FaultBehaviour } from '../types.js';
import { header, withHeaders } from './http.js';
import { partsOf, signedHmac, webhookFault, type HmacParts } from './webhook-faults.js';

/** A signature no key produces: the reference refuses it with 401. */
const REFUSED = 'refused-by-the-faulty-rule';

export interface HmacCheck {
  listener: TenantHmacListener;
  parts: HmacParts;
  /** The Webhook-Signature value; undefined when the header is missing. */
  signature: string | undefined;
  /** `hmacSign` with the listener's secret over the request's parts, options on top. */
  sign(options?: Partial<HmacSignInput>): string;
}

/** `accepts`: whether the faulty rule takes the request's signature. */
export function hmacRule({ accepts }: { accepts: (check: HmacCheck) => boolean }): FaultBehaviour {
  return webhookFault({
    handle: async ({ request, known, next }) => {
      if (known?.method !== 'HMAC') return next(request);
      const parts = partsOf(request);
      const check: HmacCheck = {
        listener: known.listener,
        parts,
        signature: header(request, 'webhook-signature'),
        sign: (options = {}) => hmacSign({ secret: known.listener.secret, ...parts, ...options }),
      };
      return next(accepts(check) ? signedHmac(known.listener, request) : withHeaders(request, { 'webhook-signature': REFUSED }));
    },
  });
}

/** What every HMAC fault that refuses valid signatures also fails: the checks that need a request accepted. */
export const NEEDS_VALID_HMAC = {
  'WH-01': 'a correctly signed request is refused, so no valid webhook is accepted',
  'WH-HMAC-12': 'the control request, signed as §5.4 says, is refused',
} as const;
