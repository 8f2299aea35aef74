import type { HmacPart } from '../../crypto/hmac.js';
import { hmacRule } from '../support/hmac-faults.js';

const ORDERS: HmacPart[][] = [
  ['timestamp', 'eventId', 'body'],
  ['timestamp', 'body', 'eventId'],
  ['eventId', 'timestamp', 'body'],
  ['eventId', 'body', 'timestamp'],
  ['body', 'timestamp', 'eventId'],
  ['body', 'eventId', 'timestamp'],
];

export const hmacAnyPartOrder = hmacRule({
  name: 'hmac-any-part-order',
  description: 'Accepts the signature over the three parts in any order (it tries every permutation "for compatibility").',
  breaks: ['WH-HMAC-05', 'WH-HMAC-06', 'WH-HMAC-07'],
  accepts: ({ signature, sign }) => ORDERS.some((order) => signature === sign({ order })),
});
