import { hmacRule } from '../support/hmac-faults.js';

export const hmacPresenceOnly = hmacRule({
  name: 'hmac-presence-only',
  description: 'Requires a non-empty Webhook-Signature but never verifies it: the body, timestamp and event ID are not protected.',
  breaks: [
    'WH-HMAC-02',
    'WH-HMAC-05',
    'WH-HMAC-06',
    'WH-HMAC-07',
    'WH-HMAC-08',
    'WH-HMAC-09',
    'WH-HMAC-10',
    'WH-HMAC-11',
    'WH-HMAC-12',
    'WH-HMAC-13',
    'WH-HMAC-14',
    'WH-HMAC-15',
    'WH-HMAC-16',
    'WH-HMAC-17',
  ],
  accepts: ({ signature }) => signature !== undefined && signature !== '',
});
