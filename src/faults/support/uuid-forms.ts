/**
 * The text forms of a UUID that Python's `uuid.UUID()` and Go's google/uuid `Parse` read besides the
 * canonical 8-4-4-4-12: 32 hex digits, braces, a `urn:uuid:` prefix, any case (ruling 26).
 */
import { isUuidV4 } from '../../crypto/uuid.js';
import type { ReferenceResponse } from '../../reference/types.js';
import { header } from './http.js';
import { acceptAs, type WebhookCall } from './webhook-faults.js';

const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The canonical lower-case form of a UUID written in one of those forms; undefined for anything else. */
export function canonicalUuid(text: string): string | undefined {
  let hex = text.trim().toLowerCase();
  if (hex.startsWith('urn:uuid:')) hex = hex.slice('urn:uuid:'.length);
  if (hex.startsWith('{') && hex.endsWith('}')) hex = hex.slice(1, -1);
  const bare = hex.length === 36 ? hex.replace(/-/g, '') : hex;
  if (!/^[0-9a-f]{32}$/.test(bare) || (hex.length !== 32 && hex.length !== 36)) return undefined;
  const canonical = `${bare.slice(0, 8)}-${bare.slice(8, 12)}-${bare.slice(12, 16)}-${bare.slice(16, 20)}-${bare.slice(20)}`;
  return hex.length === 36 && !CANONICAL.test(hex) ? undefined : canonical;
}

/**
 * A service that parses the event ID as a UUID in any of those forms: `record` says which ID its
 * idempotency record and run are kept under (the canonical one, or one per text as sent).
 */
export async function readUuidForms(call: WebhookCall, record: (canonical: string, sent: string) => string): Promise<ReferenceResponse> {
  const sent = header(call.request, 'webhook-event-id') ?? '';
  const canonical = canonicalUuid(sent);
  // Other versions and the canonical text itself: the reference's own answer.
  if (canonical === undefined || sent === canonical || !isUuidV4(canonical)) return call.next(call.request);
  return acceptAs(call, { eventId: record(canonical, sent) });
}
