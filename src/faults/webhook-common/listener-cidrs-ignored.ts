import { webhookFault } from '../support/webhook-faults.js';

export const listenerCidrsIgnored = webhookFault({
  name: 'listener-cidrs-ignored',
  description: 'Stores the listener\'s allowed CIDRs but never compares the source address with them.',
  breaks: ['WH-26'],
  handle: async ({ request, known, next }) => {
    const cidr = known?.listener.config.allowedCidrs[0];
    // As if the request came from inside the first allowed block: the address no longer matters.
    return next(cidr ? { ...request, remoteAddress: cidr.split('/')[0]! } : request);
  },
});
