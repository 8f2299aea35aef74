import type { RequirementId } from '../../requirements.js';
import type { FaultDefinition } from '../types.js';
import { forwardedClient } from '../support/forwarding.js';
import { webhookFault } from '../support/webhook-faults.js';

/** A listener whose IP restriction reads the client address from `header` when the request has one. */
function trusting(name: string, header: 'x-forwarded-for' | 'forwarded' | 'x-real-ip', shown: string, breaks: RequirementId): FaultDefinition {
  return webhookFault({
    name,
    description: `Takes the source address for the listener's IP restriction from ${shown} when present (a proxy setting trusted for every client): anyone can claim an allowed address.`,
    breaks: [breaks],
    handle: async ({ request, next }) => {
      const claimed = forwardedClient(request, header);
      return next(claimed === undefined ? request : { ...request, remoteAddress: claimed });
    },
  });
}

export const listenerTrustsXForwardedFor = trusting('listener-trusts-x-forwarded-for', 'x-forwarded-for', '`X-Forwarded-For`', 'WH-X22');
export const listenerTrustsForwarded = trusting('listener-trusts-forwarded', 'forwarded', '`Forwarded: for=`', 'WH-X23');
export const listenerTrustsXRealIp = trusting('listener-trusts-x-real-ip', 'x-real-ip', '`X-Real-IP`', 'WH-X24');
