import { createHmac } from 'node:crypto';
import { hmacRule, NEEDS_VALID_HMAC } from '../support/hmac-faults.js';

export const hmacHexDigest = hmacRule({
  name: 'hmac-hex-digest',
  description: 'Expects the HMAC digest as lower-case hex (the most common webhook convention) instead of base64url.',
  breaks: ['WH-HMAC-01', 'WH-HMAC-15'],
  explains: NEEDS_VALID_HMAC,
  accepts: ({ signature, listener, parts }) =>
    signature ===
    createHmac('sha256', Buffer.from(listener.secret, 'utf8')).update(`${parts.timestamp}.${parts.eventId}.`).update(parts.body).digest('hex'),
});
