import { authenticated } from '../support/reauthenticate.js';
import { firstLine, lastLine, pickLines } from '../support/repeated-headers.js';
import { sentAuthenticated, webhookFault } from '../support/webhook-faults.js';

/**
 * The parser differential ruling 24 keeps MUST: the signature middleware reads the first line of a repeated
 * header (a framework's `headers.get`), the handler after it the last (`getlist()[-1]`), so a replay with a
 * second event ID runs again and a stale signed timestamp passes the window with a current second line.
 */
export const webhookHeadersSplitReading = webhookFault({
  name: 'webhook-headers-split-reading',
  description: 'Verifies the signature over the first line of each repeated Webhook-* header but keys the window, idempotency and the run on the last line.',
  breaks: ['WH-X25', 'WH-X26', 'WH-X18', 'WH-X19', 'WH-X20'],
  handle: async ({ request, known, env, next }) => {
    const first = pickLines(request, firstLine);
    if (first === request || known === undefined || !(await sentAuthenticated(env, known, first))) return next(first);
    return next(await authenticated(env, known, pickLines(request, lastLine)));
  },
});
