import { hmacRule } from '../support/hmac-faults.js';
import { WEBHOOK_TIMESTAMP_WINDOW_SECONDS } from '../../spec-numbers.js';

/** The skew window the service tolerates; it tries every second of it. */
const WINDOW = WEBHOOK_TIMESTAMP_WINDOW_SECONDS;

export const hmacTimestampUnbound = hmacRule({
  name: 'hmac-timestamp-unbound',
  description: 'Accepts a signature made over any timestamp inside the 5-minute window, not only the one sent: the timestamp is not bound to the signature.',
  breaks: ['WH-HMAC-10'],
  accepts: ({ signature, parts, sign }) => {
    if (signature === sign()) return true;
    const sent = Number(parts.timestamp);
    if (!Number.isInteger(sent)) return false;
    for (let delta = -WINDOW; delta <= WINDOW; delta += 1) if (signature === sign({ timestamp: String(sent + delta) })) return true;
    return false;
  },
});
