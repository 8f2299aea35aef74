/**
 * What the load driver's sender offers (load-transport.ts implements it): requests without timing of their
 * own, answered through a callback the moment they end, and `fetch` for the unmeasured priming requests.
 */

export interface LoadRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/api/v1/webhooks/incoming/abc`. */
  path: string;
  /** Lower-case names; no `host` or `content-length` (the transport sets both). */
  headers: Record<string, string>;
  body?: Buffer;
}

/** `status` > 0 with no `error`: an answer. `status` 0 with `error`: a HarnessError code (TIMEOUT, CONNECTION_RESET, …) or CANCELLED. */
/** `body`: the start of the answer's body, only when `keepBodyOf` asked for its status (error samples). */
export type LoadDone = (status: number, error: string | undefined, bytes: number, body?: Buffer) => void;

export interface LoadTransportOptions {
  /** `http(s)://host:port` of the target. */
  origin: string;
  connections: number;
  /** Headers and body must be complete within this time, per request. */
  timeoutMs: number;
  connectTimeoutMs?: number;
  /** PEM bundle trusted besides the system store. */
  ca?: string;
  insecureSkipVerify?: boolean;
  /** Largest body `fetch` reads (priming answers); default 1 MiB. */
  maxFetchBytes?: number;
  /** Ctrl-C: aborts every `fetch` in flight (priming is not measured, but must stop as fast). */
  signal?: AbortSignal;
  /** Asked once per answer: keep the start of its body (error samples)? Unset: bodies are only counted. */
  keepBodyOf?: (status: number) => boolean;
}

export interface LoadTransport {
  readonly origin: string;
  send(req: LoadRequest, done: LoadDone): void;
  /**
   * One request with its body read (priming, warm-up); never on the measured path. Bounded like every other
   * request: the timeout for the whole exchange, the body cap, and the run's signal. Fails as a HarnessError.
   */
  fetch(req: LoadRequest): Promise<{ status: number; body: Buffer }>;
  /** Waits for requests in flight, then closes the connections. */
  close(): Promise<void>;
  /** Fails every request still queued or in flight (as CANCELLED) and closes at once. */
  destroy(): Promise<void>;
}
