/** Fault and variant builders for services that read one line of a repeated Webhook-* header. */
import type { ReferenceRequest } from '../../reference/types.js';
import type { FaultBehaviour } from '../types.js';
import { withHeaders } from './http.js';
import { webhookFault } from './webhook-faults.js';

const REPEATABLE = ['webhook-event-id', 'webhook-signature', 'webhook-timestamp'] as const;

/**
 * The request as a service that reads one line of each repeated header sees it. The adapter joins repeated
 * lines with `, ` (RFC 9110 §5.3, Node's rule); none of these values holds one, so a `, ` is a line break.
 * Returns the request itself when no header was repeated.
 */
export function pickLines(request: ReferenceRequest, pick: (lines: string[]) => string): ReferenceRequest {
  const changes: Record<string, string> = {};
  for (const header of REPEATABLE) {
    const value = request.headers[header];
    if (value !== undefined && value.includes(', ')) changes[header] = pick(value.split(', '));
  }
  return Object.keys(changes).length === 0 ? request : withHeaders(request, changes);
}

export const firstLine = (lines: string[]): string => lines[0]!;
export const lastLine = (lines: string[]): string => lines[lines.length - 1]!;

/** A service that reads one line of a repeated header (Go's Header.Get reads the first, others the last). */
export function oneHeaderLine(pick: (lines: string[]) => string): FaultBehaviour {
  return webhookFault({ handle: async ({ request, next }) => next(pickLines(request, pick)) });
}
