/**
 * The client address a forwarding header claims, read the way a service that trusts it would: the first
 * entry of `X-Forwarded-For`, the `for=` of the first `Forwarded` element (RFC 7239 §4, brackets and
 * quotes of IPv6 nodes removed), `X-Real-IP` as is. Faults use it to let a claimed address through.
 */
import type { ReferenceRequest } from '../../reference/types.js';
import type { FaultBehaviour, FaultEntry } from '../types.js';
import { webhookFault } from './webhook-faults.js';

export type ForwardingHeaderName = 'x-forwarded-for' | 'forwarded' | 'x-real-ip';

export function forwardedClient(request: ReferenceRequest, name: ForwardingHeaderName): string | undefined {
  const value = request.headers[name];
  if (value === undefined || value.trim() === '') return undefined;
  if (name === 'x-real-ip') return value.trim();
  if (name === 'x-forwarded-for') return value.split(',')[0]!.trim();
  const match = /(?:^|[;,\s])for=("?)\[?([^\]";,\s]+)\]?\1/i.exec(value);
  return match?.[2];
}

/** The first address any of the three headers claims. */
export function anyForwardedClient(request: ReferenceRequest): string | undefined {
  for (const name of ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const) {
    const claimed = forwardedClient(request, name);
    if (claimed !== undefined) return claimed;
  }
  return undefined;
}

/**
 * A listener whose IP restriction reads the client address from `header` (`shown` in the description) when
 * the request has one: the description and behaviour of the three header faults, written once.
 */
export function listenerTrusting(header: ForwardingHeaderName, shown: string): Pick<FaultEntry, 'description'> & FaultBehaviour {
  return {
    description: `Takes the source address for the listener's IP restriction from ${shown} when present (a proxy setting trusted for every client): anyone can claim an allowed address.`,
    ...webhookFault({
      handle: async ({ request, next }) => {
        const claimed = forwardedClient(request, header);
        return next(claimed === undefined ? request : { ...request, remoteAddress: claimed });
      },
    }),
  };
}
