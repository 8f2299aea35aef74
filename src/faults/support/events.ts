/**
 * Helpers for idempotency and run faults: a per-request context that ports can read (the reference calls
 * the event store and the runner without the request; a fault that keys on the body or runs early needs
 * it), and the parts of a webhook request those faults look at.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ReferenceRequest } from '../../reference/types.js';
import { header } from './http.js';

export interface WebhookScope {
  listenerId: string;
  eventId: string;
  body: Buffer;
  /** Set by a fault that already ran the automation for this request. */
  ran?: boolean;
}

/** One store per fault that needs it: `run(scope, fn)` around the handler, `getStore()` in ports. */
export function createScope(): AsyncLocalStorage<WebhookScope> {
  return new AsyncLocalStorage<WebhookScope>();
}

export function scopeOf(request: ReferenceRequest, listenerId: string): WebhookScope {
  return { listenerId, eventId: (header(request, 'webhook-event-id') ?? '').toLowerCase(), body: request.body };
}

/** The JSON body, or undefined when it is not JSON (the reference refuses those). */
export function parsedBody(body: Buffer): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return undefined;
  }
}

/** The body parsed and serialised again (formatting lost), or undefined when it is not JSON. */
export function reserialisedBody(body: Buffer): Buffer | undefined {
  const parsed = parsedBody(body);
  return parsed === undefined ? undefined : Buffer.from(JSON.stringify(parsed.value), 'utf8');
}

export const DAY = 86_400;
export const RETENTION = 7 * DAY;
