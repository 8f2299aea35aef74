/**
 * How a client talks to a target, as a run's options set it. One plain, cloneable object that travels whole
 * from the option values (`cli/`) through the engine session and the suite thread to createTargetClient:
 * a flag that reaches the client is a row in the option table and a field here, read by the client, and
 * nothing in between copies it field by field.
 */
export interface ClientSettings {
  /** Per-request timeout; default DEFAULT_TIMEOUT_MS (10 000 ms). */
  timeoutMs?: number;
  /** Connect timeout; default 5 000 ms. */
  connectTimeoutMs?: number;
  /** Responses larger than this fail with RESPONSE_TOO_LARGE; default 1 MiB. */
  maxResponseBytes?: number;
  /** Requests per second across this client (token bucket); honours 429 Retry-After. Default: no limit. */
  rateLimit?: number;
  /** Body bytes kept per exchange; default 4096. */
  recordBodyBytes?: number;
  /** Grant method of the default token that API calls use; default `secret`. */
  tokenMethod?: 'secret' | 'assertion';
  /** Retries after a 429 before the 429 is returned; default 3. */
  max429Retries?: number;
  /**
   * Longest Retry-After a 429 may impose (default DEFAULT_RETRY_AFTER_CAP_MS, 10 s, as `run` shows it). A
   * target asking for more, or for more than the request's timeout has left, fails the request with
   * RATE_LIMITED instead of holding it.
   */
  retryAfterCapMs?: number;
}
