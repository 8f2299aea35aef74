/**
 * Webhooks of either kind, before and after authentication (service.md §4.3, §5.4, §6; rulings 13-20):
 * the path and the listener, the headers' names and forms, the timestamp's unit and window, the event ID's
 * UUID version, the body, and the states a sender meets (a paused automation, a reused event ID).
 */
import { WEBHOOK_BODY_MAX_BYTES, WEBHOOK_TIMESTAMP_WINDOW_SECONDS } from '../../spec-numbers.js';
import { WEBHOOK_PREFIX, type RefusedRequest } from '../refused-request.js';
import { firstPresent, offsetWords, shown } from './shown.js';
import type { Facts, Mistake, MistakeArea, Refusal } from './types.js';

const refusal = (status: number, says: string, path?: string): Refusal => ({ status, says, ...(path === undefined ? {} : { path }) });
const TIMESTAMP_REQUIRED = refusal(400, 'Webhook-Timestamp is required');
const EVENT_ID_REQUIRED = refusal(400, 'Webhook-Event-Id is required');
const SIGNATURE_REQUIRED = refusal(401, 'Webhook-Signature is required');
const JWT_REQUIRED = refusal(401, 'Authorization: Bearer <JWT> is required');
const NOT_SECONDS = refusal(400, 'Webhook-Timestamp must be Unix seconds');
const OUT_OF_WINDOW = refusal(400, 'Webhook-Timestamp is more than 5 minutes from server time');
const NOT_V4 = refusal(400, 'Webhook-Event-Id must be a UUID v4');
const WINDOW = `${WEBHOOK_TIMESTAMP_WINDOW_SECONDS} s`;

/** The names other webhook conventions (and typos) give the three headers of §5.4. */
const OTHER_NAMES: Readonly<Record<string, readonly string[]>> = {
  'Webhook-Timestamp': ['x-webhook-timestamp', 'webhook_timestamp', 'webhooktimestamp', 'x-timestamp', 'timestamp', 'svix-timestamp', 'webhook-time', 'x-signature-timestamp'],
  'Webhook-Event-Id': ['x-webhook-event-id', 'webhook_event_id', 'webhook-eventid', 'webhook-id', 'x-event-id', 'event-id', 'svix-id', 'idempotency-key', 'x-request-id'],
  'Webhook-Signature': ['x-webhook-signature', 'webhook_signature', 'x-signature', 'signature', 'x-hub-signature-256', 'svix-signature', 'webhook-signature-256'],
};
/** The header a "… is required" refusal names. */
const WANTED: ReadonlyArray<readonly [Refusal, string]> = [
  [TIMESTAMP_REQUIRED, 'Webhook-Timestamp'],
  [EVENT_ID_REQUIRED, 'Webhook-Event-Id'],
  [SIGNATURE_REQUIRED, 'Webhook-Signature'],
];

const UUID_LAYOUT = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f])([0-9a-f]{3})-([0-9a-f])([0-9a-f]{3})-([0-9a-f]{12})$/i;
const timestampOf = (refused: RefusedRequest): string => (refused.header('webhook-timestamp') ?? '').trim();
const eventIdOf = (refused: RefusedRequest): string => refused.header('webhook-event-id') ?? '';
const when = (test: boolean, facts: Facts = {}): Facts | undefined => (test ? facts : undefined);

/** A timestamp whose value divided by `per` is within the window: a smaller unit than seconds. */
function unitFits(refused: RefusedRequest, per: number): boolean {
  const value = Number(timestampOf(refused));
  return Number.isFinite(value) && Math.abs(refused.now - value / per) <= WEBHOOK_TIMESTAMP_WINDOW_SECONDS;
}

const mistakes: readonly Mistake[] = [
  {
    code: 'webhook-path-form',
    explains: [refusal(404, 'no such resource', '/api/v1/webhooks/')],
    checks: 'the webhook path',
    detect: (refused) => {
      const named = [...refused.sandbox.listeners.keys()].find((id) => refused.path.includes(id));
      return named === undefined ? undefined : { path: shown(refused.path), expected: `${WEBHOOK_PREFIX}${named}` };
    },
    sentence: 'the path {path} names a listener but is not its webhook URL: POST to {expected} exactly (no trailing slash, no other segment)',
  },
  {
    code: 'listener-id-case',
    explains: [refusal(404, 'no webhook listener with that ID')],
    checks: "the listener ID's case",
    detect: (refused) => {
      const id = (refused.listenerId ?? '').trim().toLowerCase();
      const found = [...refused.sandbox.listeners.keys()].find((known) => known.toLowerCase() === id);
      return found === undefined ? undefined : { seen: shown(refused.listenerId) };
    },
    sentence: 'no listener has the ID {seen} as written: listener IDs are case-sensitive and taken exactly as the profile gives them',
  },
  {
    code: 'listener-unknown',
    explains: [refusal(404, 'no webhook listener with that ID')],
    checks: 'the tenant\'s listener IDs',
    detect: (refused) => ({ seen: shown(refused.listenerId) }),
    sentence: 'this tenant has no listener {seen}: copy the ID from the profile (listeners.*.listenerId) or from serve\'s start lines',
  },
  {
    code: 'webhook-method-not-post',
    explains: [refusal(405, 'use POST', WEBHOOK_PREFIX)],
    checks: 'the method',
    detect: (refused) => ({ method: shown(refused.request.method) }),
    sentence: 'a webhook is sent with POST, not {method}',
  },
  {
    code: 'listener-source-address',
    explains: [refusal(403, "the source address is outside the listener's allowed CIDRs")],
    checks: "the listener's allowed CIDRs",
    detect: (refused) => ({ address: refused.request.remoteAddress, cidrs: refused.listener?.listener.config.allowedCidrs.join(', ') ?? '' }),
    sentence: 'this listener accepts requests only from {cidrs}; this one came from {address}',
  },
  {
    code: 'webhook-body-too-large',
    explains: [refusal(413, 'the body is larger than', WEBHOOK_PREFIX)],
    checks: 'the body size',
    detect: (refused) => ({ limit: String(refused.tenant.reference.webhookBodyBytes ?? WEBHOOK_BODY_MAX_BYTES) }),
    sentence: 'the body is over the {limit} bytes a webhook may carry: send less context',
  },
  {
    code: 'webhook-content-type-missing',
    explains: [refusal(400, 'Content-Type is required')],
    checks: 'Content-Type',
    detect: () => ({}),
    sentence: 'the request has no Content-Type: send Content-Type: application/json',
  },
  {
    code: 'webhook-content-type-not-json',
    explains: [refusal(400, 'Content-Type must be application/json')],
    checks: 'Content-Type',
    detect: (refused) => ({ seen: shown(refused.header('content-type')) }),
    sentence: 'Content-Type is {seen}: a webhook body is JSON, sent as Content-Type: application/json',
  },
  {
    code: 'webhook-header-other-name',
    explains: WANTED.map(([r]) => r),
    checks: "other services' header names",
    detect: (refused) => {
      const wanted = WANTED.find(([r]) => r.says === refused.description)?.[1];
      const seen = wanted === undefined ? undefined : firstPresent(refused.request.headers, OTHER_NAMES[wanted] ?? []);
      return seen === undefined || wanted === undefined ? undefined : { seen, wanted };
    },
    sentence: 'the request has a header "{seen}" but no {wanted}: the header is named exactly {wanted}',
  },
  {
    code: 'hmac-listener-sent-jwt',
    explains: [SIGNATURE_REQUIRED],
    checks: 'the listener\'s method',
    detect: (refused) => when(/^\s*bearer\s/i.test(refused.header('authorization') ?? ''), { listener: refused.listener?.name ?? '' }),
    sentence: 'this listener ({listener}) authenticates with an HMAC signature in Webhook-Signature, not with a JWT in Authorization',
  },
  {
    code: 'jwt-listener-sent-hmac',
    explains: [JWT_REQUIRED],
    checks: 'the listener\'s method',
    detect: (refused) => when(refused.header('webhook-signature') !== undefined, { listener: refused.listener?.name ?? '' }),
    sentence: 'this listener ({listener}) authenticates with a JWT in Authorization: Bearer <JWT>, not with Webhook-Signature',
  },
  {
    code: 'webhook-header-missing',
    explains: [...WANTED.map(([r]) => r), JWT_REQUIRED],
    checks: 'the required headers',
    detect: (refused) => ({ wanted: WANTED.find(([r]) => r.says === refused.description)?.[1] ?? 'Authorization: Bearer <JWT>' }),
    sentence: 'the request has no {wanted} header: every webhook carries Webhook-Timestamp, Webhook-Event-Id and its authentication (§5.4)',
  },
  {
    code: 'timestamp-iso-date',
    explains: [NOT_SECONDS],
    checks: 'dates',
    detect: (refused) => {
      const seen = timestampOf(refused);
      return when(/[-:T,]/.test(seen) && !Number.isNaN(Date.parse(seen)), { seen: shown(seen) });
    },
    sentence: 'Webhook-Timestamp is a date, {seen}: send Unix time in whole seconds, e.g. 1700000000',
  },
  {
    code: 'timestamp-fractional',
    explains: [NOT_SECONDS],
    checks: 'fractions',
    detect: (refused) => when(/^\d+\.\d+$/.test(timestampOf(refused)), { seen: shown(timestampOf(refused)) }),
    sentence: 'Webhook-Timestamp {seen} has a fraction: send whole Unix seconds, no decimal point',
  },
  {
    code: 'timestamp-micro-or-nanoseconds',
    explains: [NOT_SECONDS, OUT_OF_WINDOW],
    checks: 'micro- and nanoseconds',
    detect: (refused) => {
      const unit = unitFits(refused, 1e6) ? 'microseconds' : unitFits(refused, 1e9) ? 'nanoseconds' : undefined;
      return unit === undefined ? undefined : { seen: shown(timestampOf(refused)), unit };
    },
    sentence: 'Webhook-Timestamp {seen} is in {unit}: send Unix seconds',
  },
  {
    code: 'timestamp-not-seconds',
    explains: [NOT_SECONDS],
    checks: 'the form',
    detect: (refused) => ({ seen: shown(timestampOf(refused)) }),
    sentence: 'Webhook-Timestamp {seen} is not Unix seconds: send a decimal integer of at most 15 digits, e.g. 1700000000',
  },
  {
    code: 'timestamp-milliseconds',
    explains: [OUT_OF_WINDOW],
    checks: 'milliseconds',
    detect: (refused) => when(unitFits(refused, 1000), { seen: shown(timestampOf(refused)) }),
    sentence: `Webhook-Timestamp {seen} is in milliseconds: send Unix seconds (divide by 1000), within ${WINDOW} of the server's time`,
  },
  {
    code: 'timestamp-skew',
    explains: [OUT_OF_WINDOW],
    checks: 'the clock skew',
    detect: (refused) => ({ offset: offsetWords(Number(timestampOf(refused)), refused.now) }),
    sentence: `Webhook-Timestamp is {offset} the server's time; the bound is ${WINDOW} either way: sign with the current time (is the sender's clock right, or is this a resent request?)`,
  },
  {
    code: 'event-id-braces',
    explains: [NOT_V4],
    checks: 'braces',
    detect: (refused) => when(/^\{.*\}$/.test(eventIdOf(refused)), { seen: shown(eventIdOf(refused)) }),
    sentence: 'Webhook-Event-Id {seen} is in braces: send the bare UUID v4, 8-4-4-4-12 hex digits',
  },
  {
    code: 'event-id-urn',
    explains: [NOT_V4],
    checks: 'the urn:uuid: prefix',
    detect: (refused) => when(/^urn:uuid:/i.test(eventIdOf(refused)), { seen: shown(eventIdOf(refused)) }),
    sentence: 'Webhook-Event-Id {seen} is a URN: send the bare UUID v4, without "urn:uuid:"',
  },
  {
    code: 'event-id-no-hyphens',
    explains: [NOT_V4],
    checks: 'hyphens',
    detect: (refused) => when(/^[0-9a-f]{32}$/i.test(eventIdOf(refused)), { seen: shown(eventIdOf(refused)) }),
    sentence: 'Webhook-Event-Id {seen} has no hyphens: send the UUID v4 in its 8-4-4-4-12 form',
  },
  {
    code: 'event-id-uuid-version',
    explains: [NOT_V4],
    checks: 'the UUID version',
    detect: (refused) => {
      const layout = UUID_LAYOUT.exec(eventIdOf(refused));
      return layout === null || layout[3] === '4' ? undefined : { seen: shown(eventIdOf(refused)), version: String(parseInt(layout[3] as string, 16)) };
    },
    sentence: 'Webhook-Event-Id {seen} is a version-{version} UUID; version 4 (random) is required: use crypto.randomUUID() or uuid4()',
  },
  {
    code: 'event-id-uuid-variant',
    explains: [NOT_V4],
    checks: 'the UUID variant',
    detect: (refused) => when(UUID_LAYOUT.test(eventIdOf(refused)), { seen: shown(eventIdOf(refused)) }),
    sentence: 'Webhook-Event-Id {seen} has version 4 but not the RFC 4122 variant (its 17th hex digit must be 8, 9, a or b): generate it with a UUID v4 library',
  },
  {
    code: 'event-id-not-uuid',
    explains: [NOT_V4],
    checks: 'the UUID form',
    detect: (refused) => ({ seen: shown(eventIdOf(refused)) }),
    sentence: 'Webhook-Event-Id {seen} is not a UUID: send a fresh UUID v4 per event (8-4-4-4-12 hex digits)',
  },
  {
    code: 'webhook-body-form-encoded',
    explains: [refusal(400, 'the body is not valid UTF-8 JSON')],
    checks: 'form encoding',
    detect: (refused) => when(/^[\w.%+-]+=[^&]*(&[\w.%+-]+=[^&]*)*$/.test(refused.request.body.toString('latin1'))),
    sentence: 'the body is form-encoded (a=b&c=d): a webhook body is JSON',
  },
  {
    code: 'webhook-body-not-json',
    explains: [refusal(400, 'the body is not valid UTF-8 JSON')],
    checks: 'UTF-8 and JSON',
    detect: (refused) => {
      const text = refused.request.body.toString('utf8');
      return { why: text.includes('\uFFFD') ? 'it is not valid UTF-8' : refused.request.body.length === 0 ? 'it is empty' : 'it does not parse as JSON' };
    },
    sentence: 'the body was authenticated but {why}: send one JSON value, UTF-8 encoded',
  },
  {
    code: 'automation-inactive',
    explains: [refusal(422, 'the automation is not published')],
    checks: 'the automation\'s state',
    detect: (refused) => ({ listener: refused.listener?.name ?? '' }),
    sentence: 'the request is right, but this listener\'s automation ({listener}) is not published or its trigger is off: it did not run; send it again once it is on',
  },
  {
    code: 'event-id-reused',
    explains: [refusal(409, 'this event ID was already processed')],
    checks: 'the event ID',
    detect: () => ({}),
    sentence: 'this Webhook-Event-Id was already accepted by this listener (records are kept 7 days): a new event needs a new UUID v4; only a retry of the same event keeps its ID',
  },
];

export const WEBHOOK_REQUEST_MISTAKES: MistakeArea = {
  area: 'webhook-request',
  title: 'Webhook requests: path, headers, timestamp, event ID, body (§4.3, §5.4, §6)',
  mistakes,
};
