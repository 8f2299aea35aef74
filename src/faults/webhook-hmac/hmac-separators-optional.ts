import { createHmac } from 'node:crypto';
import { hmacRule } from '../support/hmac-faults.js';

export const hmacSeparatorsOptional = hmacRule({
  name: 'hmac-separators-optional',
  description: 'Also accepts a signature over the parts concatenated without the periods between them.',
  breaks: ['WH-HMAC-17'],
  accepts: ({ signature, listener, parts, sign }) =>
    signature === sign() ||
    signature === createHmac('sha256', Buffer.from(listener.secret, 'utf8')).update(`${parts.timestamp}${parts.eventId}`).update(parts.body).digest('base64url'),
});
