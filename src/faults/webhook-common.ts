import { isUuidV4, randomUuidV4 } from '../crypto/uuid.js';
import { mediaType } from '../reference/http.js';
import { WEBHOOK_PATH_PREFIX } from '../reference/webhooks.js';
import { WEBHOOK_TIMESTAMP_WINDOW_SECONDS } from '../spec-numbers.js';
import { parsedBody } from './support/events.js';
import { listenerTrusting } from './support/forwarding.js';
import { errorCode, errorResponse, header, readJson, withJsonBody } from './support/http.js';
import { acceptAs, authenticated, nowStamp, sentAuthenticated, uuidV4From, webhookFault } from './support/webhook-faults.js';
import { firstLine, lastLine, oneHeaderLine, pickLines } from './support/repeated-headers.js';
import { readUuidForms } from './support/uuid-forms.js';
import type { FaultTable } from './types.js';

/** JSON text with every non-ASCII character escaped as `\uXXXX`, as an ASCII-only encoder writes it. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Enough to read any body that is under the limit in characters: 4 UTF-8 bytes per character at most. */
const READ_FACTOR = 4;

/** Any UUID's text form, whatever its version and variant. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The nil UUID (RFC 9562 §5.9). */
const NIL = '00000000-0000-0000-0000-000000000000';

/** Version 4 and a variant nibble 0–7 (NCS): the bits an "is it 11x?" test never looks at. */
const NCS = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-7][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Version 4 and a variant nibble with its top bit set: 8–b (RFC 4122) but also c–f. */
const TOP_BIT = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89a-f][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Version 4 by its version digit alone, whatever its variant bits. */
const VERSION_4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The first JSON value of the text and whether anything follows it, as a streaming decoder reads one value
 * (Go's json.Decoder.Decode): the shortest prefix ending at a closing bracket that parses.
 */
function firstValue(text: string): string | undefined {
  for (let end = 0; end < text.length; end += 1) {
    const ch = text[end];
    if (ch !== '}' && ch !== ']') continue;
    try {
      JSON.parse(text.slice(0, end + 1));
      return text.slice(0, end + 1);
    } catch {
      // not the end of the first value yet
    }
  }
  return undefined;
}

/**
 * The text with every bare `NaN`, `Infinity` and `-Infinity` outside strings read as a number, as Python's
 * `json.loads` does by default (its `parse_constant`); `null` stands for it here, since the reference's
 * JSON.parse cannot hold a non-finite number. Undefined when the text has none.
 */
function withoutNonFinite(text: string): string | undefined {
  let out = '';
  let inString = false;
  let found = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    const literal = ['-Infinity', 'Infinity', 'NaN'].find((word) => text.startsWith(word, i));
    if (!inString && literal !== undefined) {
      out += 'null';
      i += literal.length - 1;
      found = true;
      continue;
    }
    out += ch;
  }
  return found ? out : undefined;
}

/** Why the checks that expect 200 fail when every accepted webhook gets 202. */
const ACCEPTED = 'every accepted webhook gets 202';

export const FAULTS: FaultTable = [
  {
    name: 'body-limit-after-ascii-escaping',
    description: 'Measures the body after re-encoding it as ASCII-only JSON (`\\uXXXX` escapes, like Python\'s json.dumps): a body of exactly the limit in bytes made of multi-byte characters is refused.',
    breaks: ['WH-X02'],
    ...webhookFault({
      handle: async ({ request, next, env }) => {
        const parsed = request.bodyExceeded ? undefined : parsedBody(request.body);
        const limit = env.tenant.webhookBodyBytes;
        return parsed !== undefined && asciiJson(parsed.value).length > limit
          ? errorResponse(413, 'payload_too_large', `the body is larger than ${limit} bytes`)
          : next(request);
      },
    }),
  },
  {
    name: 'body-limit-exclusive',
    description: 'Refuses a webhook body of exactly the limit (64 KB) with 413: the bound is checked with `>=` instead of `>`.',
    breaks: ['WH-02'],
    ...webhookFault({
      handle: async ({ request, next, env }) =>
        !request.bodyExceeded && request.body.length >= env.tenant.webhookBodyBytes
          ? errorResponse(413, 'payload_too_large', `the body must be smaller than ${env.tenant.webhookBodyBytes} bytes`)
          : next(request),
    }),
  },
  {
    name: 'body-limit-in-characters',
    description: 'Counts the 64 KB limit in characters of the decoded body, not in bytes: a body of multi-byte characters over the limit in bytes is accepted.',
    breaks: ['WH-X01'],
    limits: (limitFor, env) => (method, url) =>
      (url.startsWith(WEBHOOK_PATH_PREFIX) ? env.tenant.webhookBodyBytes * READ_FACTOR : limitFor(method, url)),
    ...webhookFault({
      handle: async ({ request, next, env }) => {
        const limit = env.tenant.webhookBodyBytes;
        if (request.bodyExceeded || request.body.length <= limit) return next(request);
        return request.body.toString('utf8').length > limit
          ? errorResponse(413, 'payload_too_large', `the body is longer than ${limit} characters`)
          : next(request);
      },
    }),
  },
  {
    name: 'body-limit-not-enforced',
    description: 'Reads webhook bodies up to 1 MB and never compares them with the 64 KB limit: a body over the limit is accepted.',
    breaks: ['WH-03'],
    limits: (limitFor) => (method, url) => (url.startsWith(WEBHOOK_PATH_PREFIX) ? 1024 * 1024 : limitFor(method, url)),
  },
  {
    name: 'content-type-exact-match',
    description: 'Compares Content-Type with `application/json` as a whole string: `application/json; charset=utf-8` is refused.',
    breaks: ['WH-23'],
    ...webhookFault({
      handle: async ({ request, next }) => {
        const value = header(request, 'content-type');
        return value !== undefined && value !== 'application/json'
          ? errorResponse(400, 'invalid_content_type', 'Content-Type must be application/json')
          : next(request);
      },
    }),
  },
  {
    name: 'content-type-not-checked',
    description: 'Requires a Content-Type header but never looks at its value: a JSON body sent as `text/plain` or a form is accepted.',
    breaks: ['WH-X09', 'WH-X10', 'WH-X11', 'WH-X12', 'WH-X13'],
    ...webhookFault({
      handle: async (call) => {
        const type = mediaType(call.request);
        return type === '' || type === 'application/json'
          ? call.next(call.request)
          : acceptAs(call, { headers: { 'content-type': 'application/json' } });
      },
    }),
  },
  {
    name: 'content-type-optional',
    description: 'Assumes JSON when Content-Type is missing instead of refusing the request.',
    breaks: ['WH-20'],
    ...webhookFault({
      handle: async (call) =>
        header(call.request, 'content-type') === undefined ? acceptAs(call, { headers: { 'content-type': 'application/json' } }) : call.next(call.request),
    }),
  },
  {
    name: 'content-type-prefix-match',
    description: 'Checks that Content-Type starts with `application/json`: `application/jsonx` is accepted.',
    breaks: ['WH-X12', 'WH-X13'],
    ...webhookFault({
      handle: async (call) => {
        const type = mediaType(call.request);
        return type !== 'application/json' && type.startsWith('application/json')
          ? acceptAs(call, { headers: { 'content-type': 'application/json' } })
          : call.next(call.request);
      },
    }),
  },
  {
    name: 'event-id-any-uuid-version',
    description: 'Accepts any UUID-shaped Webhook-Event-Id (v1, v3, v5, v7, nil, any variant), not only UUID v4.',
    breaks: ['WH-11', 'WH-12', 'WH-13', 'WH-14', 'WH-15', 'WH-18'],
    ...webhookFault({
      handle: async (call) => {
        const id = header(call.request, 'webhook-event-id') ?? '';
        return UUID.test(id) && !isUuidV4(id) ? acceptAs(call, { eventId: uuidV4From(id) }) : call.next(call.request);
      },
    }),
  },
  /**
   * Ruling 26's MUST side: reading more text forms of a UUID is allowed; keeping one record per text is not,
   * because the same event sent again in another form then runs again.
   */
  {
    name: 'event-id-forms-distinct',
    description: 'Parses Webhook-Event-Id in any UUID text form (32 hex digits, braces, `urn:uuid:`, upper case) but keys the idempotency record on the text as sent: the same event in another form runs again.',
    breaks: ['IDEM-11', 'IDEM-13', 'WH-17', 'WH-30'],
    ...webhookFault({ handle: (call) => readUuidForms(call, (canonical, sent) => (sent === canonical ? canonical : uuidV4From(sent))) }),
  },
  {
    name: 'event-id-header-optional',
    description: 'Does not require Webhook-Event-Id: without it the service makes up an ID (so retries are never recognised).',
    breaks: ['WH-22'],
    ...webhookFault({
      handle: async (call) =>
        header(call.request, 'webhook-event-id') === undefined ? acceptAs(call, { eventId: randomUuidV4() }) : call.next(call.request),
    }),
  },
  {
    name: 'event-id-nil-accepted',
    description: 'Lets the nil UUID through the event-ID check (it is special-cased as "a UUID") and uses it as the event\'s ID.',
    breaks: ['WH-15'],
    ...webhookFault({ handle: async (call) => (header(call.request, 'webhook-event-id') === NIL ? acceptAs(call, { eventId: uuidV4From(NIL) }) : call.next(call.request)) }),
  },
  {
    name: 'event-id-not-validated',
    description: 'Takes any non-empty Webhook-Event-Id as the event\'s ID, UUID or not.',
    breaks: ['WH-11', 'WH-12', 'WH-13', 'WH-14', 'WH-15', 'WH-16', 'WH-17', 'WH-18', 'WH-30'],
    ...webhookFault({
      handle: async (call) => {
        const id = header(call.request, 'webhook-event-id');
        return id !== undefined && id !== '' && !isUuidV4(id) ? acceptAs(call, { eventId: uuidV4From(id) }) : call.next(call.request);
      },
    }),
  },
  {
    name: 'event-id-uppercase-refused',
    description: 'Validates Webhook-Event-Id case-sensitively: a UUID v4 in upper-case hex is refused.',
    breaks: ['WH-19'],
    ...webhookFault({
      handle: async ({ request, next }) =>
        /[A-F]/.test(header(request, 'webhook-event-id') ?? '')
          ? errorResponse(400, 'invalid_event_id', 'Webhook-Event-Id must be a lower-case UUID v4')
          : next(request),
    }),
  },
  {
    name: 'event-id-variant-ncs-accepted',
    description: 'Refuses only the Microsoft and reserved UUID variants (`(byte & 0xc0) === 0xc0`): version 4 with the NCS variant (0–7) is accepted.',
    breaks: ['WH-X14', 'WH-X15'],
    ...webhookFault({
      handle: async (call) => {
        const id = header(call.request, 'webhook-event-id') ?? '';
        return NCS.test(id) ? acceptAs(call, { eventId: uuidV4From(id) }) : call.next(call.request);
      },
    }),
  },
  {
    name: 'event-id-variant-top-bit',
    description: 'Checks only the top bit of the UUID variant (`& 0x80`): version 4 with the Microsoft (c, d) or reserved (e, f) variant is accepted.',
    breaks: ['WH-X16', 'WH-X17'],
    ...webhookFault({
      handle: async (call) => {
        const id = header(call.request, 'webhook-event-id') ?? '';
        return TOP_BIT.test(id) && !/-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(id)
          ? acceptAs(call, { eventId: uuidV4From(id) })
          : call.next(call.request);
      },
    }),
  },
  {
    name: 'event-id-variant-unchecked',
    description: 'Checks the UUID version nibble of Webhook-Event-Id but not the RFC 4122 variant.',
    breaks: ['WH-18'],
    ...webhookFault({
      handle: async (call) => {
        const id = header(call.request, 'webhook-event-id') ?? '';
        return VERSION_4.test(id) && !isUuidV4(id) ? acceptAs(call, { eventId: uuidV4From(id) }) : call.next(call.request);
      },
    }),
  },
  {
    name: 'json-empty-body-as-object',
    description: 'Treats an empty body as `{}` instead of refusing it as invalid JSON.',
    breaks: ['WH-25'],
    ...webhookFault({ handle: async (call) => (call.request.body.length === 0 && !call.request.bodyExceeded ? acceptAs(call, { body: Buffer.from('{}') }) : call.next(call.request)) }),
  },
  {
    name: 'json-first-value',
    description: 'Decodes the first JSON value of the body and ignores what follows it: `{…}x` and `{…} {…}` are accepted.',
    breaks: ['WH-X06', 'WH-X07'],
    ...webhookFault({
      handle: async (call) => {
        const text = call.request.body.toString('utf8');
        if (call.request.bodyExceeded || parsedBody(call.request.body) !== undefined) return call.next(call.request);
        const first = firstValue(text);
        return first === undefined ? call.next(call.request) : acceptAs(call, { body: Buffer.from(first, 'utf8') });
      },
    }),
  },
  {
    name: 'json-nonfinite-accepted',
    description: 'Parses the body with a reader that takes `NaN`, `Infinity` and `-Infinity` as numbers (Python\'s `json.loads` default): JSON that RFC 8259 §6 forbids is accepted.',
    breaks: ['WH-X27'],
    ...webhookFault({
      handle: async (call) => {
        if (call.request.bodyExceeded) return call.next(call.request);
        const replaced = withoutNonFinite(call.request.body.toString('utf8'));
        return replaced === undefined ? call.next(call.request) : acceptAs(call, { body: Buffer.from(replaced, 'utf8') });
      },
    }),
  },
  {
    name: 'json-not-validated',
    description: 'Does not parse the body: invalid JSON (truncated, empty) is accepted and handed to the automation as a string.',
    breaks: ['WH-24', 'WH-25'],
    ...webhookFault({
      handle: async (call) =>
        parsedBody(call.request.body) !== undefined ? call.next(call.request) : acceptAs(call, { body: Buffer.from(JSON.stringify(call.request.body.toString('utf8'))) }),
    }),
  },
  {
    name: 'listener-cidrs-401',
    description: 'Refuses a source address outside the listener\'s CIDRs with 401 (as an authentication failure) instead of 403.',
    breaks: ['WH-26'],
    ...webhookFault({
      handle: async ({ request, next }) => {
        const response = await next(request);
        return response.status === 403 ? errorResponse(401, 'unauthorized', 'the request could not be authenticated') : response;
      },
    }),
  },
  {
    name: 'listener-cidrs-ignored',
    description: 'Stores the listener\'s allowed CIDRs but never compares the source address with them.',
    breaks: ['WH-26'],
    ...webhookFault({
      handle: async ({ request, known, next }) => {
        const cidr = known?.listener.config.allowedCidrs[0];
        // As if the request came from inside the first allowed block: the address no longer matters.
        return next(cidr ? { ...request, remoteAddress: cidr.split('/')[0]! } : request);
      },
    }),
  },
  {
    name: 'listener-trusts-forwarded',
    breaks: ['WH-X23'],
    ...listenerTrusting('forwarded', '`Forwarded: for=`'),
  },
  {
    name: 'listener-trusts-x-forwarded-for',
    breaks: ['WH-X22'],
    ...listenerTrusting('x-forwarded-for', '`X-Forwarded-For`'),
  },
  {
    name: 'listener-trusts-x-real-ip',
    breaks: ['WH-X24'],
    ...listenerTrusting('x-real-ip', '`X-Real-IP`'),
  },
  {
    name: 'timestamp-empty-as-now',
    description: 'Takes an empty Webhook-Timestamp as "now" instead of refusing it as invalid.',
    breaks: ['WH-10'],
    ...webhookFault({
      handle: async (call) =>
        header(call.request, 'webhook-timestamp') === '' ? acceptAs(call, { timestamp: nowStamp(call.env) }) : call.next(call.request),
    }),
  },
  {
    name: 'timestamp-future-unbounded',
    description: 'Checks only that Webhook-Timestamp is not older than 5 minutes: any timestamp in the future is accepted (milliseconds read as seconds too).',
    breaks: ['WH-07', 'WH-08'],
    ...webhookFault({
      handle: async (call) => {
        const text = header(call.request, 'webhook-timestamp') ?? '';
        const ahead = Number(text) - call.env.ports().clock.now();
        return /^\d+$/.test(text) && ahead > WEBHOOK_TIMESTAMP_WINDOW_SECONDS ? acceptAs(call, { timestamp: nowStamp(call.env) }) : call.next(call.request);
      },
    }),
  },
  {
    name: 'timestamp-header-optional',
    description: 'Does not require Webhook-Timestamp: without it the window check is skipped (the signature covers an empty timestamp).',
    breaks: ['WH-21'],
    ...webhookFault({
      handle: async (call) =>
        header(call.request, 'webhook-timestamp') === undefined ? acceptAs(call, { timestamp: nowStamp(call.env) }) : call.next(call.request),
    }),
  },
  {
    name: 'timestamp-iso-accepted',
    description: 'Parses Webhook-Timestamp with a date parser: an ISO 8601 date is accepted where Unix seconds are required.',
    breaks: ['WH-09'],
    ...webhookFault({
      handle: async (call) => {
        const text = header(call.request, 'webhook-timestamp') ?? '';
        const parsed = Date.parse(text);
        if (/^\d+$/.test(text) || Number.isNaN(parsed)) return call.next(call.request);
        const seconds = Math.floor(parsed / 1000);
        return Math.abs(call.env.ports().clock.now() - seconds) <= WEBHOOK_TIMESTAMP_WINDOW_SECONDS ? acceptAs(call, { timestamp: String(seconds) }) : call.next(call.request);
      },
    }),
  },
  {
    name: 'timestamp-milliseconds-accepted',
    description: 'Guesses the unit of Webhook-Timestamp: a value too large for seconds is read as milliseconds and accepted.',
    breaks: ['WH-08'],
    ...webhookFault({
      handle: async (call) => {
        const text = header(call.request, 'webhook-timestamp') ?? '';
        if (!/^\d{12,15}$/.test(text)) return call.next(call.request);
        const seconds = Math.floor(Number(text) / 1000);
        return Math.abs(call.env.ports().clock.now() - seconds) <= WEBHOOK_TIMESTAMP_WINDOW_SECONDS ? acceptAs(call, { timestamp: String(seconds) }) : call.next(call.request);
      },
    }),
  },
  {
    name: 'timestamp-past-unbounded',
    description: 'Checks only that Webhook-Timestamp is not in the future beyond 5 minutes: any past timestamp is accepted (replays of old requests too).',
    breaks: ['WH-06'],
    ...webhookFault({
      handle: async (call) => {
        const text = header(call.request, 'webhook-timestamp') ?? '';
        const behind = call.env.ports().clock.now() - Number(text);
        return /^\d+$/.test(text) && behind > WEBHOOK_TIMESTAMP_WINDOW_SECONDS ? acceptAs(call, { timestamp: nowStamp(call.env) }) : call.next(call.request);
      },
    }),
  },
  {
    name: 'timestamp-refused-401',
    description: 'Treats an out-of-range or malformed Webhook-Timestamp as an authentication failure: 401 instead of 400.',
    breaks: ['WH-06', 'WH-07', 'WH-08', 'WH-09', 'WH-10'],
    ...webhookFault({
      handle: async ({ request, next }) => {
        const response = await next(request);
        return response.status === 400 && errorCode(response) === 'invalid_timestamp'
          ? errorResponse(401, 'unauthorized', 'the request is not fresh')
          : response;
      },
    }),
  },
  {
    name: 'timestamp-window-10-minutes',
    description: 'Allows 10 minutes between Webhook-Timestamp and server time, where §5.4 allows 5.',
    breaks: ['WH-06', 'WH-07'],
    ...webhookFault({
      handle: async (call) => {
        const text = header(call.request, 'webhook-timestamp') ?? '';
        const skew = Math.abs(call.env.ports().clock.now() - Number(text));
        return /^\d+$/.test(text) && skew > WEBHOOK_TIMESTAMP_WINDOW_SECONDS && skew <= 600 ? acceptAs(call, { timestamp: nowStamp(call.env) }) : call.next(call.request);
      },
    }),
  },
  {
    name: 'timestamp-window-60s',
    description: 'Allows only 60 s between Webhook-Timestamp and server time, where §5.4 allows 5 minutes.',
    breaks: ['WH-04', 'WH-05'],
    ...webhookFault({
      handle: async ({ request, next, env }) => {
        const timestamp = Number(header(request, 'webhook-timestamp'));
        return Number.isFinite(timestamp) && Math.abs(env.ports().clock.now() - timestamp) > 60
          ? errorResponse(400, 'invalid_timestamp', 'Webhook-Timestamp is more than 60 s from server time')
          : next(request);
      },
    }),
  },
  {
    name: 'webhook-accepted-202',
    description: 'Answers 202 Accepted (queued) for webhooks it accepted and ran, where §7 says 200.',
    breaks: ['WH-01', 'WH-02', 'WH-04', 'WH-05'],
    explains: {
      'WH-19': ACCEPTED,
      'WH-23': ACCEPTED,
    },
    ...webhookFault({
      handle: async ({ request, next }) => {
        const response = await next(request);
        return response.status === 200 ? withJsonBody(response, readJson(response), 202) : response;
      },
    }),
  },
  {
    name: 'webhook-headers-last-line',
    description: 'Reads the last line of a repeated Webhook-* header: a valid signature sent after another value is accepted.',
    breaks: ['WH-X21'],
    ...oneHeaderLine(lastLine),
  },
  /**
   * The parser differential ruling 24 keeps MUST: the signature middleware reads the first line of a repeated
   * header (a framework's `headers.get`), the handler after it the last (`getlist()[-1]`), so a replay with a
   * second event ID runs again and a stale signed timestamp passes the window with a current second line.
   */
  {
    name: 'webhook-headers-split-reading',
    description: 'Verifies the signature over the first line of each repeated Webhook-* header but keys the window, idempotency and the run on the last line.',
    breaks: ['WH-X25', 'WH-X26', 'WH-X18', 'WH-X19', 'WH-X20'],
    ...webhookFault({
      handle: async ({ request, known, env, next }) => {
        const first = pickLines(request, firstLine);
        if (first === request || known === undefined || !(await sentAuthenticated(env, known, first))) return next(first);
        return next(await authenticated(env, known, pickLines(request, lastLine)));
      },
    }),
  },
];
