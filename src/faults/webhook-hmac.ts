import type { HmacPart } from '../crypto/hmac.js';
import { WEBHOOK_TIMESTAMP_WINDOW_SECONDS } from '../spec-numbers.js';
import { reserialisedBody } from './support/events.js';
import { hmacRule, NEEDS_VALID_HMAC } from './support/hmac-faults.js';
import { errorResponse } from './support/http.js';
import { webhookFault } from './support/webhook-faults.js';
import type { FaultTable } from './types.js';

/** Every order of the three signed parts. */
const ORDERS: HmacPart[][] = [
  ['timestamp', 'eventId', 'body'],
  ['timestamp', 'body', 'eventId'],
  ['eventId', 'timestamp', 'body'],
  ['eventId', 'body', 'timestamp'],
  ['body', 'timestamp', 'eventId'],
  ['body', 'eventId', 'timestamp'],
];

/** `v1,` (Standard Webhooks), `sha256=` (GitHub), `t=…,v1=` style labels: a word and `=` or `,`. */
const SCHEME = /^[A-Za-z0-9]+[=,]/;

/** The skew window the service tolerates; it tries every second of it. */
const WINDOW = WEBHOOK_TIMESTAMP_WINDOW_SECONDS;

/** Half the digest's 43 characters, rounded up: the shortest truncation RFC 2104 §5 would allow. */
const SHORTEST = 22;

export const FAULTS: FaultTable = [
  {
    name: 'hmac-any-part-order',
    description: 'Accepts the signature over the three parts in any order (it tries every permutation "for compatibility").',
    breaks: ['WH-HMAC-05', 'WH-HMAC-06', 'WH-HMAC-07'],
    ...hmacRule({ accepts: ({ signature, sign }) => ORDERS.some((order) => signature === sign({ order })) }),
  },
  {
    name: 'hmac-body-optional-in-input',
    description: 'Also accepts a signature computed without the body (`<timestamp>.<event_id>.`), as sent by senders that sign before serialising.',
    breaks: ['WH-HMAC-13'],
    ...hmacRule({ accepts: ({ signature, sign }) => signature === sign() || signature === sign({ body: '' }) }),
  },
  {
    name: 'hmac-case-insensitive',
    description: 'Compares Webhook-Signature with the digest case-insensitively (as if it were hex): the valid digest in another case is accepted.',
    breaks: ['WH-HMAC-X01', 'WH-HMAC-X02', 'WH-HMAC-X03'],
    ...hmacRule({ accepts: ({ signature, sign }) => signature !== undefined && signature !== '' && signature.toLowerCase() === sign().toLowerCase() }),
  },
  {
    name: 'hmac-decoded-key',
    description: 'Keys HMAC-SHA256 with the base64url-decoded secret instead of the UTF-8 bytes of the secret string as displayed.',
    breaks: ['WH-HMAC-01', 'WH-HMAC-08'],
    explains: NEEDS_VALID_HMAC,
    ...hmacRule({ accepts: ({ signature, sign }) => signature === sign({ decodedKey: true }) }),
  },
  {
    name: 'hmac-digest-length-compare',
    description: 'Compares only the first 43 characters of Webhook-Signature (the digest\'s length) with the digest: the valid digest with anything appended is accepted.',
    breaks: ['WH-HMAC-X04', 'WH-HMAC-X05'],
    ...hmacRule({
      accepts: ({ signature, sign }) => {
        const expected = sign();
        return signature !== undefined && signature.length >= expected.length && signature.slice(0, expected.length) === expected;
      },
    }),
  },
  {
    name: 'hmac-either-key',
    description: 'Accepts signatures keyed with the secret string and also with the base64url-decoded secret ("to be lenient").',
    breaks: ['WH-HMAC-08'],
    ...hmacRule({ accepts: ({ signature, sign }) => signature === sign() || signature === sign({ decodedKey: true }) }),
  },
  {
    name: 'hmac-hex-accepted',
    description: 'Accepts the HMAC digest in hex as well as in base64url.',
    breaks: ['WH-HMAC-15'],
    ...hmacRule({
      accepts: ({ signature, sign }) => signature === sign() || signature === sign({ hex: true }),
    }),
  },
  {
    name: 'hmac-hex-digest',
    description: 'Expects the HMAC digest as lower-case hex (the most common webhook convention) instead of base64url.',
    breaks: ['WH-HMAC-01', 'WH-HMAC-15'],
    explains: NEEDS_VALID_HMAC,
    ...hmacRule({
      accepts: ({ signature, sign }) => signature === sign({ hex: true }),
    }),
  },
  {
    name: 'hmac-over-reserialised-body',
    description: 'Computes the signature over the parsed and re-serialised JSON instead of the raw body bytes, so formatting is not protected.',
    breaks: ['WH-HMAC-16'],
    ...hmacRule({
      accepts: ({ signature, parts, sign }) => {
        const body = reserialisedBody(parts.body);
        return signature === (body === undefined ? sign() : sign({ body }));
      },
    }),
  },
  {
    name: 'hmac-padded-base64-only',
    description: 'Expects the digest in standard base64 with `=` padding, so the base64url signature without padding that §5.4 specifies is refused.',
    breaks: ['WH-HMAC-01'],
    explains: NEEDS_VALID_HMAC,
    ...hmacRule({ accepts: ({ signature, sign }) => signature === sign({ standardBase64: true, padded: true }) }),
  },
  {
    name: 'hmac-prefix-compare',
    description: 'Compares only as many characters as the sender gave (`expected.startsWith(given)`): a truncated signature is accepted.',
    breaks: ['WH-HMAC-14', 'WH-HMAC-X06', 'WH-HMAC-X07'],
    ...hmacRule({ accepts: ({ signature, sign }) => signature !== undefined && signature !== '' && sign().startsWith(signature) }),
  },
  {
    name: 'hmac-presence-only',
    description: 'Requires a non-empty Webhook-Signature but never verifies it: the body, timestamp and event ID are not protected.',
    breaks: [
      'WH-HMAC-02',
      'WH-HMAC-05',
      'WH-HMAC-06',
      'WH-HMAC-07',
      'WH-HMAC-08',
      'WH-HMAC-09',
      'WH-HMAC-10',
      'WH-HMAC-11',
      'WH-HMAC-12',
      'WH-HMAC-13',
      'WH-HMAC-14',
      'WH-HMAC-15',
      'WH-HMAC-16',
      'WH-HMAC-17',
    ],
    ...hmacRule({ accepts: ({ signature }) => signature !== undefined && signature !== '' }),
  },
  {
    name: 'hmac-scheme-prefix-stripped',
    description: 'Strips a scheme label (`v1,`, `sha256=`) from Webhook-Signature before comparing, as other webhook schemes write it: the valid digest behind such a prefix is accepted.',
    breaks: ['WH-HMAC-X10', 'WH-HMAC-X11'],
    ...hmacRule({ accepts: ({ signature, sign }) => signature !== undefined && signature !== '' && signature.replace(SCHEME, '') === sign() }),
  },
  {
    name: 'hmac-separators-optional',
    description: 'Also accepts a signature over the parts concatenated without the periods between them.',
    breaks: ['WH-HMAC-17'],
    ...hmacRule({
      accepts: ({ signature, sign }) => signature === sign() || signature === sign({ separator: '' }),
    }),
  },
  {
    name: 'hmac-signature-list',
    description: 'Reads Webhook-Signature as a space-separated list of `v1,<digest>` entries (Standard Webhooks) and accepts when any entry matches.',
    breaks: ['WH-HMAC-X10', 'WH-HMAC-X12'],
    ...hmacRule({
      accepts: ({ signature, sign }) => {
        const expected = sign();
        return (signature ?? '').split(' ').some((entry) => entry !== '' && entry.replace(/^v1,/, '') === expected);
      },
    }),
  },
  {
    name: 'hmac-signature-optional',
    description: 'Verifies Webhook-Signature only when one is sent: a request without it (or with an empty one) is accepted.',
    breaks: ['WH-HMAC-03', 'WH-HMAC-04'],
    ...hmacRule({ accepts: ({ signature, sign }) => signature === undefined || signature === '' || signature === sign() }),
  },
  {
    name: 'hmac-standard-base64-accepted',
    description: 'Normalises the signature before comparing (`+`→`-`, `/`→`_`, padding dropped): the standard base64 alphabet is accepted too.',
    breaks: ['WH-HMAC-12'],
    ...hmacRule({ accepts: ({ signature, sign }) => signature !== undefined && signature.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') === sign() }),
  },
  {
    name: 'hmac-timestamp-unbound',
    description: 'Accepts a signature made over any timestamp inside the 5-minute window, not only the one sent: the timestamp is not bound to the signature.',
    breaks: ['WH-HMAC-10'],
    ...hmacRule({
      accepts: ({ signature, parts, sign }) => {
        if (signature === sign()) return true;
        const sent = Number(parts.timestamp);
        if (!Number.isInteger(sent)) return false;
        for (let delta = -WINDOW; delta <= WINDOW; delta += 1) if (signature === sign({ timestamp: String(sent + delta) })) return true;
        return false;
      },
    }),
  },
  {
    name: 'hmac-truncated-mac-accepted',
    description: 'Accepts a truncated MAC (a prefix of the digest of at least half its length, as RFC 2104 §5 allows a protocol to define) where §5.4 wants the whole digest.',
    breaks: ['WH-HMAC-14', 'WH-HMAC-X06'],
    ...hmacRule({ accepts: ({ signature, sign }) => signature !== undefined && signature.length >= SHORTEST && sign().startsWith(signature) }),
  },
  {
    name: 'hmac-whitespace-ignored',
    description: 'Removes every whitespace character from Webhook-Signature before comparing: the valid digest with a space or tab inside is accepted.',
    breaks: ['WH-HMAC-X08', 'WH-HMAC-X09'],
    ...hmacRule({ accepts: ({ signature, sign }) => signature !== undefined && signature !== '' && signature.replace(/\s+/g, '') === sign() }),
  },
  {
    name: 'webhook-auth-failure-400',
    description: 'Answers a failed webhook authentication (wrong, missing or malformed signature) with 400 instead of 401.',
    breaks: [
      'WH-HMAC-02',
      'WH-HMAC-03',
      'WH-HMAC-04',
      'WH-HMAC-05',
      'WH-HMAC-06',
      'WH-HMAC-07',
      'WH-HMAC-08',
      'WH-HMAC-09',
      'WH-HMAC-10',
      'WH-HMAC-11',
      'WH-HMAC-12',
      'WH-HMAC-13',
      'WH-HMAC-14',
      'WH-HMAC-15',
      'WH-HMAC-16',
      'WH-HMAC-17',
    ],
    ...webhookFault({
      handle: async ({ request, next }) => {
        const response = await next(request);
        return response.status === 401 ? errorResponse(400, 'invalid_signature', 'the request signature is not valid') : response;
      },
    }),
  },
];
