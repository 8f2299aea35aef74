/**
 * `POST /api/v1/webhooks/incoming/{listener_id}` (service.md §4.3, §5.4, §6, §7; rulings 13–22).
 *
 * Order of the checks, first failure answers:
 *   404 unknown listener → 403 source address outside the listener's CIDRs → 413 body over the limit →
 *   400 Content-Type, Webhook-Timestamp, Webhook-Event-Id → 401 authentication (HMAC or JWT) →
 *   400 invalid JSON → 422 automation not published or trigger disabled → 409 duplicate → 200 and the run.
 * Why this order:
 *   - The listener and the peer address are known before the body is read; refusing there costs nothing.
 *   - The 400 header checks are stateless and cheap, and the timestamp window bounds how long a captured
 *     request can be replayed before the signature is even computed.
 *   - Authentication comes before the idempotency check (ruling 17): a request that fails authentication
 *     never consumes its event ID, and a duplicate ID with a bad signature gets 401, not 409.
 *   - The body is parsed only once it is authenticated (untrusted input is not parsed).
 *   - JSON validity and the automation state are checked before the event ID is claimed, so an event that
 *     could not run (bad JSON, paused automation) can be sent again once the sender or the admin fixes it.
 * 422 for an inactive automation: the request is well-formed and authenticated but cannot be processed now.
 * Not 409 (that means "duplicate" to every sender), not 403 (that means "wrong source address" here), not
 * 404 (the listener exists and the sender proved it holds its secret), not a 5xx (nothing failed).
 */
import { hmacVerifier, type HmacVerifier } from '../crypto/hmac.js';
import { isUuidV4 } from '../crypto/uuid.js';
import { verifyWebhookJwt } from '../crypto/webhook-jwt.js';
import type { AddressMatcher } from './cidr.js';
import { JSON_CONTENT_TYPE, errorResponse, mediaType, payloadTooLarge } from './http.js';
import { RememberedJwksFailure, type JwksCache } from './jwks.js';
import type { JwtListenerConfig, ListenerConfig, ReferenceDeps, ReferenceRequest, ReferenceResponse } from './types.js';
import { WEBHOOK_JWT_MAX_EXP_SECONDS, WEBHOOK_TIMESTAMP_WINDOW_SECONDS } from '../spec-numbers.js';

export const WEBHOOK_PATH_PREFIX = '/api/v1/webhooks/incoming/';

export interface ListenerEntry {
  listener: ListenerConfig;
  addresses: AddressMatcher;
  /** Full listener URL: the `aud` of its JWTs. */
  url: string;
  /** An HMAC listener's signature check, its key prepared once (undefined for a JWT listener). */
  verify: HmacVerifier | undefined;
}

/** A listener as the route looks it up: its configuration with what is prepared once per listener. */
export function listenerEntry(listener: ListenerConfig, addresses: AddressMatcher, url: string): ListenerEntry {
  return { listener, addresses, url, verify: listener.method === 'HMAC' ? hmacVerifier(listener.hmacSecret) : undefined };
}

export interface WebhookContext {
  listeners: Map<string, ListenerEntry>;
  baseUrl: string;
  bodyLimit: number;
  jwks: JwksCache;
  deps: Pick<ReferenceDeps, 'clock' | 'eventStore' | 'runner' | 'logger'>;
}

const badRequest = (error: string, description: string): ReferenceResponse => errorResponse(400, error, description);
const unauthorized = (description: string): ReferenceResponse => errorResponse(401, 'unauthorized', description);
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Synchronous wherever the ports are: an HMAC webhook against the in-memory stores is answered without a
 * promise (each `async` layer cost an allocation and a microtask hop per request, measured in
 * bench/hot-path-bench.ts); a JWT listener (its JWKS may be fetched) or a port that answers with a promise
 * (a state folder, a remote store) goes on asynchronously. The order of the checks is the same either way.
 */
export function handleWebhook(request: ReferenceRequest, listenerId: string, context: WebhookContext): ReferenceResponse | Promise<ReferenceResponse> {
  const entry = context.listeners.get(listenerId);
  if (entry === undefined) return errorResponse(404, 'not_found', 'no webhook listener with that ID');
  if (!entry.addresses.allows(request.remoteAddress)) {
    return errorResponse(403, 'forbidden', 'the source address is outside the listener\'s allowed CIDRs');
  }
  if (request.bodyExceeded) return payloadTooLarge(context.bodyLimit);

  const contentType = mediaType(request);
  if (contentType === '') return badRequest('missing_header', 'Content-Type is required');
  if (contentType !== 'application/json') return badRequest('invalid_content_type', 'Content-Type must be application/json');
  const timestamp = request.headers['webhook-timestamp'];
  if (timestamp === undefined) return badRequest('missing_header', 'Webhook-Timestamp is required');
  const now = context.deps.clock.now();
  const seconds = timestamp.trim();
  // Unix seconds as a decimal string; 15 digits bound the number well inside exact doubles.
  if (!/^\d{1,15}$/.test(seconds)) return badRequest('invalid_timestamp', 'Webhook-Timestamp must be Unix seconds');
  if (Math.abs(now - Number(seconds)) > WEBHOOK_TIMESTAMP_WINDOW_SECONDS) {
    return badRequest('invalid_timestamp', 'Webhook-Timestamp is more than 5 minutes from server time');
  }
  const eventId = request.headers['webhook-event-id'];
  if (eventId === undefined) return badRequest('missing_header', 'Webhook-Event-Id is required');
  if (!isUuidV4(eventId)) return badRequest('invalid_event_id', 'Webhook-Event-Id must be a UUID v4');

  if (entry.verify !== undefined) {
    const refusal = hmacRefusal(request, entry.verify, timestamp, eventId);
    if (refusal !== undefined) return unauthorized(refusal);
    return accept(request, entry, listenerId, eventId, now, context);
  }
  const listener = entry.listener as JwtListenerConfig;
  return jwtAuthenticated(request, listener, entry.url, eventId, now, context).then((refusal) =>
    refusal !== undefined ? unauthorized(refusal) : accept(request, entry, listenerId, eventId, now, context),
  );
}

/** Authenticated: the body's JSON, the automation's state, the event ID's claim, then the run. */
function accept(request: ReferenceRequest, entry: ListenerEntry, listenerId: string, eventId: string, now: number, context: WebhookContext): ReferenceResponse | Promise<ReferenceResponse> {
  let body: unknown;
  let text: string;
  try {
    text = strictUtf8.decode(request.body);
    body = JSON.parse(text);
  } catch {
    return badRequest('invalid_json', 'the body is not valid UTF-8 JSON');
  }
  if (!entry.listener.published || !entry.listener.enabled) {
    return errorResponse(422, 'automation_inactive', 'the automation is not published or its trigger is disabled; it did not run');
  }
  // UUIDs are case-insensitive: the same ID in upper case is the same event.
  const claimed = context.deps.eventStore.claim(listenerId, eventId.toLowerCase(), now);
  // In-memory ports answer at once: no closure made for a claim that is already known.
  if (typeof claimed === 'boolean') return runOnce(claimed, listenerId, eventId, body, text, now, context);
  return claimed.then((first) => runOnce(first, listenerId, eventId, body, text, now, context));
}

/** The claim's outcome: 409 for a duplicate, else the run and the 200 (after the run, when it is async). */
function runOnce(first: boolean, listenerId: string, eventId: string, body: unknown, text: string, now: number, context: WebhookContext): ReferenceResponse | Promise<ReferenceResponse> {
  if (!first) return errorResponse(409, 'duplicate_event', 'this event ID was already processed for this listener');
  // The text goes along: the context is the body losslessly, which the parsed value is not for big numbers.
  const ran = context.deps.runner.run({ listenerId, eventId, context: body, contextJson: text, at: now });
  return ran === undefined ? accepted(eventId) : ran.then(() => accepted(eventId));
}

/** Shared by every 200: nothing downstream writes into an answer's headers (the adapter and the faults copy). */
const ACCEPTED_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': JSON_CONTENT_TYPE });

/**
 * `{"accepted":true,"eventId":"…"}`, as JSON.stringify writes it, by concatenation: the event ID passed
 * isUuidV4 (hex digits and dashes), so it needs no escaping (tests/reference/webhook-answer.test.ts).
 */
function accepted(eventId: string): ReferenceResponse {
  return { status: 200, headers: ACCEPTED_HEADERS, body: `{"accepted":true,"eventId":"${eventId}"}` };
}

/** undefined when the HMAC signature is right, else the reason (for the 401 body: never echoes secrets). */
function hmacRefusal(request: ReferenceRequest, verify: HmacVerifier, timestamp: string, eventId: string): string | undefined {
  const signature = request.headers['webhook-signature'];
  if (signature === undefined || signature === '') return 'Webhook-Signature is required';
  return verify(timestamp, eventId, request.body, signature) ? undefined : 'signature mismatch';
}

/** undefined when the webhook's JWT is accepted, else the reason (for the 401 body: never echoes secrets). */
async function jwtAuthenticated(
  request: ReferenceRequest,
  listener: JwtListenerConfig,
  webhookUrl: string,
  eventId: string,
  now: number,
  context: WebhookContext,
): Promise<string | undefined> {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') return 'Authorization: Bearer <JWT> is required';
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) return 'Authorization must be Bearer <JWT>';
  let jwksFailed = false;
  const verdict = await verifyWebhookJwt(
    match[1] as string,
    async (kid) => {
      try {
        return await context.jwks.getKey(listener.jwksUrl, kid);
      } catch (error) {
        jwksFailed = true;
        // Logged when a fetch fails, not again for each webhook refused while that failure is remembered.
        if (!(error instanceof RememberedJwksFailure)) {
          context.deps.logger(`jwks: cannot fetch the JWKS of listener ${listener.listenerId}: ${(error as Error).message}`);
        }
        throw error;
      }
    },
    { baseUrl: context.baseUrl, webhookUrl, eventId, body: request.body, now, maxExpSeconds: WEBHOOK_JWT_MAX_EXP_SECONDS },
  );
  if (jwksFailed) return 'the JWKS could not be fetched';
  return verdict.ok ? undefined : `JWT refused (${verdict.reason})`;
}
