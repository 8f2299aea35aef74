// Inbound webhook requests (service.md §4.3, §5.4) built without any k6 import. The HMAC primitive is
// injected: k6/crypto in the scripts, node:crypto in the tests that check these requests against the
// reference implementation.

/**
 * HMAC-SHA256 of `input` keyed with the UTF-8 bytes of `secret`, base64url without padding.
 * @callback HmacBase64Url
 * @param {string} secret
 * @param {string} input
 * @returns {string}
 */

/**
 * @typedef {object} BuiltRequest
 * @property {string} url
 * @property {string} body
 * @property {Record<string, string>} headers
 */

export const WEBHOOK_PATH_PREFIX = '/api/v1/webhooks/incoming/';

/**
 * @param {string} listenerId
 * @returns {string}
 */
export function webhookPath(listenerId) {
  return WEBHOOK_PATH_PREFIX + encodeURIComponent(listenerId);
}

/**
 * `<timestamp>.<event_id>.<raw body>` (§5.4 HMAC step 1).
 * @param {string} timestamp
 * @param {string} eventId
 * @param {string} body
 * @returns {string}
 */
export function hmacSignatureInput(timestamp, eventId, body) {
  return timestamp + '.' + eventId + '.' + body;
}

/**
 * Unix seconds as the decimal string `Webhook-Timestamp` carries.
 * @param {number} epochMs
 * @returns {string}
 */
export function webhookTimestamp(epochMs) {
  return String(Math.floor(epochMs / 1000));
}

/**
 * @typedef {object} HmacRequestInput
 * @property {string} baseUrl
 * @property {string} listenerId
 * @property {string} secret
 * @property {string} eventId
 * @property {string} timestamp
 * @property {string} body
 * @property {HmacBase64Url} hmac
 */

/**
 * A complete HMAC-authenticated webhook request.
 * @param {HmacRequestInput} input
 * @returns {BuiltRequest}
 */
export function buildHmacRequest(input) {
  const signature = input.hmac(input.secret, hmacSignatureInput(input.timestamp, input.eventId, input.body));
  return {
    url: input.baseUrl + webhookPath(input.listenerId),
    body: input.body,
    headers: {
      'Content-Type': 'application/json',
      'Webhook-Timestamp': input.timestamp,
      'Webhook-Event-Id': input.eventId,
      'Webhook-Signature': signature,
    },
  };
}

/**
 * A builder for one listener: the scripts' per-iteration call takes only what changes (event ID, body,
 * send time), so the listener, the secret and the injected HMAC are wired once.
 * @param {{ baseUrl: string }} profile
 * @param {{ listenerId: string, secret: string }} listener
 * @param {HmacBase64Url} hmac k6/crypto in scripts, node:crypto in tests
 * @returns {(eventId: string, body: string, epochMs: number) => BuiltRequest}
 */
export function hmacRequestBuilder(profile, listener, hmac) {
  return function (eventId, body, epochMs) {
    return buildHmacRequest({
      baseUrl: profile.baseUrl,
      listenerId: listener.listenerId,
      secret: listener.secret,
      eventId: eventId,
      timestamp: webhookTimestamp(epochMs),
      body: body,
      hmac: hmac,
    });
  };
}

/**
 * @typedef {object} JwtRequestInput
 * @property {string} url the listener URL the corpus was signed for
 * @property {string} eventId
 * @property {string} timestamp fresh: the JWT does not cover it, so a replayed corpus stays in the ±300 s window
 * @property {string} body
 * @property {string} jwt
 */

/**
 * A JWT-authenticated webhook request from a pre-signed corpus entry.
 * @param {JwtRequestInput} input
 * @returns {BuiltRequest}
 */
export function buildJwtRequest(input) {
  return {
    url: input.url,
    body: input.body,
    headers: {
      'Content-Type': 'application/json',
      'Webhook-Timestamp': input.timestamp,
      'Webhook-Event-Id': input.eventId,
      Authorization: 'Bearer ' + input.jwt,
    },
  };
}
