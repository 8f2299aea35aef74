/**
 * What the transport is given: its options, once per client, and each request. Apart from transport.ts
 * because its attempt (transport-attempt.ts), which transport.ts imports, reads both.
 */
import type { InternalRecorder } from './recorder.js';
import type { Pacer } from './rate-limit.js';
import type { RequestOutcome } from './types.js';

export interface TransportOptions {
  timeoutMs: number;
  connectTimeoutMs: number;
  maxResponseBytes: number;
  /** PEM bundle trusted besides the system store. */
  ca?: string;
  insecureSkipVerify: boolean;
  pacer: Pacer;
  recorder: InternalRecorder;
  /** Retries after a 429 (each waits for its Retry-After). Default 3. */
  max429Retries?: number;
  /** Longest Retry-After honoured; default DEFAULT_RETRY_AFTER_CAP_MS (the same as `run`'s). */
  retryAfterCapMs?: number;
  onOutcome?: (outcome: RequestOutcome) => void;
  /**
   * Called before every attempt; throws to refuse the request, which is then never sent (the client's
   * guard: an access token goes to the baseUrl's origin only, ruling 35).
   */
  guard?: (req: TransportRequest) => void;
}

export interface TransportRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  label?: string;
  timeoutMs?: number;
  /** Default true: wait for Retry-After and send again on 429. */
  retryOn429?: boolean;
  /** Overrides the client's response bound for this request (the runs hook lists every run ever made). */
  maxResponseBytes?: number;
  /** Further lines of these headers, sent after the one in `headers` (repeated-header checks). */
  repeatedHeaders?: Record<string, string[]>;
  /** Values made for this request only (its HMAC signature): redacted from its exchange. */
  ephemeral?: readonly string[];
  /** The request's recipe for a later replay (kept on its recorded exchange). */
  replay?: import('./replay-note.js').ReplayNote;
  /** Credentials inside the answer (an access token) to register with the recorder before it stores it. */
  secretsIn?: (status: number, body: Buffer) => string[];
}
