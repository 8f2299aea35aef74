/**
 * The load driver's sender: an undici Pool with a fixed number of keep-alive connections and the
 * low-level dispatch API, so each request costs one handler object and no promise or stream. The response
 * body is counted and dropped. Owned by the load driver (src/load/); lives here because undici is only
 * imported under src/client/.
 *
 * Timing is the caller's: `done` runs the moment the response ends (or fails), and the caller reads its
 * own clock there, against the request's intended send time.
 */
import { rootCertificates } from 'node:tls';
import { Pool } from 'undici';
import { toTransportError } from './transport-errors.js';

export interface LoadRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/api/v1/webhooks/incoming/abc`. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** `status` > 0 with no `error`: an answer. `status` 0 with `error`: a HarnessError code (TIMEOUT, CONNECTION_RESET, …). */
export type LoadDone = (status: number, error: string | undefined, bytes: number) => void;

export interface LoadTransportOptions {
  /** `http(s)://host:port` of the target. */
  origin: string;
  connections: number;
  /** Requests per connection in flight at once; 1 (no pipelining) unless asked. */
  pipelining?: number;
  /** Headers and body timeout per request. */
  timeoutMs: number;
  connectTimeoutMs?: number;
  /** PEM bundle trusted besides the system store. */
  ca?: string;
  insecureSkipVerify?: boolean;
}

export interface LoadTransport {
  readonly origin: string;
  send(req: LoadRequest, done: LoadDone): void;
  /** One request with its body read (priming, warm-up, fixtures); never on the measured path. */
  fetch(req: LoadRequest): Promise<{ status: number; body: Buffer }>;
  /** Waits for requests in flight, then closes the connections. */
  close(): Promise<void>;
  /** Fails every request still in flight (as CANCELLED) and closes at once. */
  destroy(): Promise<void>;
}

/**
 * undici's core dispatch protocol (onConnect/onHeaders/onData/onComplete/onError). undici 7 marks it
 * deprecated in favour of onRequestStart/onResponseStart/…, but a handler in the new style is wrapped in an
 * adapter that also parses every response's headers into an object; this sender never reads headers, and on
 * the hot path that parse is measurable. The package pins undici 7, where both protocols are supported.
 */
class Handler {
  private status = 0;
  private bytes = 0;
  private finished = false;

  constructor(
    private readonly req: LoadRequest,
    private readonly origin: string,
    private readonly timeoutMs: number,
    private readonly connectTimeoutMs: number,
    private readonly done: LoadDone,
  ) {}

  onConnect(): void {}

  onHeaders(statusCode: number): boolean {
    this.status = statusCode;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.bytes += chunk.length;
    return true;
  }

  onComplete(): void {
    if (this.finished) return;
    this.finished = true;
    this.done(this.status, undefined, this.bytes);
  }

  onError(error: Error): void {
    if (this.finished) return;
    this.finished = true;
    this.done(0, errorCode(error, this.req, this.origin, this.timeoutMs, this.connectTimeoutMs), this.bytes);
  }
}

/** Stable code of a transport failure (the client's mapping), or CANCELLED when the pool was destroyed. */
function errorCode(error: Error, req: LoadRequest, origin: string, timeoutMs: number, connectTimeoutMs: number): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'UND_ERR_DESTROYED' || code === 'UND_ERR_CLOSED') return 'CANCELLED';
  return toTransportError(error, { method: req.method, url: origin + req.path, timeoutMs, connectTimeoutMs, timedOut: false }).code;
}

export function createLoadTransport(options: LoadTransportOptions): LoadTransport {
  const origin = new URL(options.origin).origin;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const ca = options.ca ? [...rootCertificates, options.ca] : undefined;
  const pool = new Pool(origin, {
    connections: options.connections,
    pipelining: options.pipelining ?? 1,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 30_000,
    connect: {
      timeout: connectTimeoutMs,
      rejectUnauthorized: !options.insecureSkipVerify,
      ...(ca ? { ca } : {}),
    },
  });
  // A pool error without a request attached (e.g. a socket failing while idle) must not crash the run.
  pool.on('connectionError', () => {});

  const send = (req: LoadRequest, done: LoadDone): void => {
    pool.dispatch(
      { path: req.path, method: req.method, headers: req.headers, body: req.body ?? null },
      new Handler(req, origin, options.timeoutMs, connectTimeoutMs, done),
    );
  };

  return {
    origin,
    send,
    async fetch(req) {
      const response = await pool.request({ path: req.path, method: req.method, headers: req.headers, body: req.body ?? null });
      const body = Buffer.from(await response.body.arrayBuffer());
      return { status: response.statusCode, body };
    },
    close: () => pool.close(),
    destroy: () => pool.destroy(),
  };
}
