import { createHmac } from 'node:crypto';
import { hmacRule } from '../support/hmac-faults.js';

export const hmacHexAccepted = hmacRule({
  name: 'hmac-hex-accepted',
  description: 'Accepts the HMAC digest in hex as well as in base64url.',
  breaks: ['WH-HMAC-15'],
  accepts: ({ signature, listener, parts, sign }) =>
    signature === sign() ||
    signature === createHmac('sha256', Buffer.from(listener.secret, 'utf8')).update(`${parts.timestamp}.${parts.eventId}.`).update(parts.body).digest('hex'),
});
