/** A fault builder for services that read one line of a repeated Webhook-* header. */
import { withHeaders } from './http.js';
import { webhookFault } from './webhook-faults.js';

const REPEATABLE = ['webhook-event-id', 'webhook-signature', 'webhook-timestamp'] as const;

/**
 * A service that reads one line of a repeated header (Go's Header.Get reads the first, many frameworks the
 * last). The adapter joins repeated lines with `, ` (RFC 7230 §3.2.2); none of these values holds one.
 */
export function oneHeaderLine(name: string, description: string, pick: (lines: string[]) => string, breaks: Array<'WH-X18' | 'WH-X19' | 'WH-X20' | 'WH-X21'>) {
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
