/**
 * The numbers service.md states (§8 "Limits" and the sections it sums up), written once for every room
 * that applies or generates against them: the reference, the client and crypto, the profile's defaults,
 * the embedded tenant, the load driver, the faults. Imports nothing, so any room may read it.
 *
 * The suites do not import this module: they write their own literals on purpose, an independent reading
 * of the spec, so a wrong number here makes the reference disagree with the checks instead of both being
 * wrong together.
 */

/** §4.3, §8: an inbound webhook body is at most 64 KB; ruling 13: 65,536 bytes unless the profile says otherwise. */
export const WEBHOOK_BODY_MAX_BYTES = 65_536;

/** §5.4, §8: Webhook-Timestamp within 5 minutes of server time, either way. */
export const WEBHOOK_TIMESTAMP_WINDOW_SECONDS = 300;

/** §5.4, §8: a webhook JWT's `exp` within 10 minutes of the current time. */
export const WEBHOOK_JWT_MAX_EXP_SECONDS = 600;

/** §5.3, §8: a client assertion's `exp` within five minutes of the current time. */
export const CLIENT_ASSERTION_MAX_EXP_SECONDS = 300;

/** §2.6, §6, §8: the service keeps a record per (listener, event ID) for 7 days. */
export const EVENT_RETENTION_SECONDS = 7 * 24 * 3600;

/** §4.4, §8: `page_size` accepts 10 to 100 (below acts as 10, above as 100), default 25. */
export const PAGE_SIZE_MIN = 10;
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_DEFAULT = 25;

/** §2.5, §8: an HMAC listener secret is 256 bits. */
export const HMAC_SECRET_BITS = 256;
