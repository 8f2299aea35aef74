import { withHeaders } from '../support/http.js';
import { webhookFault } from '../support/webhook-faults.js';

const REPEATABLE = ['webhook-event-id', 'webhook-signature', 'webhook-timestamp'] as const;

/**
 * A service that reads one line of a repeated header (Go's Header.Get reads the first, many frameworks the
 * last). The adapter joins repeated lines with `, ` (RFC 7230 §3.2.2); none of these values holds one.
 */
function oneLine(name: string, description: string, pick: (lines: string[]) => string, breaks: Array<'WH-X18' | 'WH-X19' | 'WH-X20' | 'WH-X21'>) {
  return webhookFault({
    name,
    description,
    breaks,
    handle: async ({ request, next }) => {
      const changes: Record<string, string> = {};
      for (const header of REPEATABLE) {
        const value = request.headers[header];
        if (value !== undefined && value.includes(', ')) changes[header] = pick(value.split(', '));
      }
      return next(Object.keys(changes).length === 0 ? request : withHeaders(request, changes));
    },
  });
}

export const webhookHeadersFirstLine = oneLine(
  'webhook-headers-first-line',
  'Reads the first line of a repeated Webhook-* header and ignores the others: a second event ID, signature or timestamp goes unnoticed.',
  (lines) => lines[0]!,
  ['WH-X18', 'WH-X19', 'WH-X20'],
);

export const webhookHeadersLastLine = oneLine(
  'webhook-headers-last-line',
  'Reads the last line of a repeated Webhook-* header: a valid signature sent after another value is accepted.',
  (lines) => lines[lines.length - 1]!,
  ['WH-X21'],
);
