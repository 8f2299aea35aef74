import { hmacRule } from '../support/hmac-faults.js';

/** Half the digest's 43 characters, rounded up: the shortest truncation RFC 2104 §5 would allow. */
const SHORTEST = 22;

export const hmacTruncatedMacAccepted = hmacRule({
  name: 'hmac-truncated-mac-accepted',
  description: 'Accepts a truncated MAC (a prefix of the digest of at least half its length, as RFC 2104 §5 allows a protocol to define) where §5.4 wants the whole digest.',
  breaks: ['WH-HMAC-14', 'WH-HMAC-X06'],
  accepts: ({ signature, sign }) => signature !== undefined && signature.length >= SHORTEST && sign().startsWith(signature),
});
