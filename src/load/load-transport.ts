/**
 * The load driver's sender (owned by src/load/). A lean HTTP/1.1 client over plain node:net / node:tls
 * sockets: a fixed pool of keep-alive connections, one request in flight per connection, each request
 * written with one write (head and body in one buffer), responses framed by a small parser
 * (load-response-parser.ts) that counts the body and drops it.
 *
 * Why not undici on this path: measured on the bench machine, undici's dispatch cost ~40 µs of CPU per
 * request, as much as the whole of autocannon's per-request cost; with HMAC signing on top the driver could
 * not reach the capacity goal (≥ 80% of autocannon). This client does only what a load request needs.
 * `fetch()` (priming, never measured) goes through the client's undici pool (src/client/load-fetch.ts).
 *
 * Timing is the caller's: `done` runs the moment a response ends (or fails); the caller reads its own clock.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { rootCertificates } from 'node:tls';
import { connect as tlsConnect } from 'node:tls';
import { ParseError, ResponseParser } from './load-response-parser.js';
import { encodeRequest, FifoQueue, unsafeRequest } from './load-wire.js';
import { HarnessError } from '../errors.js';
import { createPrimingClient } from '../client/load-fetch.js';
import { toTransportError } from '../client/transport-errors.js';

export interface LoadRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/api/v1/webhooks/incoming/abc`. */
  path: string;
  /** Lower-case names; no `host` or `content-length` (the transport sets both). */
  headers: Record<string, string>;
  body?: Buffer;
}

/** `status` > 0 with no `error`: an answer. `status` 0 with `error`: a HarnessError code (TIMEOUT, CONNECTION_RESET, …) or CANCELLED. */
export type LoadDone = (status: number, error: string | undefined, bytes: number) => void;

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

interface Job {
  req: LoadRequest;
  done: LoadDone;
  /** performance.now() when written (for the timeout sweep). */
  started: number;
}

interface Conn {
  socket: Socket;
  parser: ResponseParser;
  connected: boolean;
  job: Job | undefined;
  /** performance.now() of the last completed response. */
  lastUsed: number;
  dead: boolean;
}

/** An idle connection older than this is not reused: servers close idle keep-alive connections (Node: 5 s). */
const IDLE_REUSE_MS = 2000;
/** How often requests are checked against the timeout (one timer for all, not one per request). */
const SWEEP_MS = 100;
/** Body bytes a priming answer may have. */
const DEFAULT_FETCH_BYTES = 1024 * 1024;

export function createLoadTransport(options: LoadTransportOptions): LoadTransport {
  const url = new URL(options.origin);
  const origin = url.origin;
  const secure = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port) || (secure ? 443 : 80);
  const hostHeader = url.host;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const ca = options.ca ? [...rootCertificates, options.ca] : undefined;

  const conns = new Set<Conn>();
  const idle: Conn[] = [];
  const queue = new FifoQueue<Job>();
  let closing: (() => void) | undefined;
  let destroyed = false;
  const priming = createPrimingClient(origin, { connectTimeoutMs, timeoutMs: options.timeoutMs, insecureSkipVerify: options.insecureSkipVerify ?? false, ...(ca ? { ca } : {}) });

  const codeOf = (error: unknown, req: LoadRequest): string =>
    toTransportError(error, { method: req.method, url: origin + req.path, timeoutMs: options.timeoutMs, connectTimeoutMs, timedOut: false }).code;

  /** Nothing queued, nothing in flight: what close() waits for. */
  const quiet = (): boolean => {
    if (queue.size > 0) return false;
    for (const conn of conns) if (conn.job) return false;
    return true;
  };

  const finishJob = (conn: Conn, status: number, error: string | undefined, bytes: number): void => {
    const job = conn.job;
    conn.job = undefined;
    if (job) job.done(status, error, bytes);
    if (closing && quiet()) closing();
  };

  const kill = (conn: Conn, error: string | undefined): void => {
    if (conn.dead) return;
    conn.dead = true;
    conns.delete(conn);
    conn.socket.destroy();
    if (conn.job) finishJob(conn, 0, error ?? 'CONNECTION_RESET', 0);
    // Work waiting for a connection must not stall because this one died.
    pump();
  };

  const open = (): Conn => {
    const socket = secure
      ? tlsConnect({ host, port, servername: isIP(host) ? undefined : host, ca, rejectUnauthorized: !options.insecureSkipVerify, ALPNProtocols: ['http/1.1'] })
      : netConnect({ host, port });
    socket.setNoDelay(true);
    const conn: Conn = { socket, parser: new ResponseParser(), connected: false, job: undefined, lastUsed: performance.now(), dead: false };
    conns.add(conn);
    const connectTimer = setTimeout(() => kill(conn, 'TIMEOUT'), connectTimeoutMs);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      clearTimeout(connectTimer);
      conn.connected = true;
      if (conn.job) write(conn, conn.job.req);
    });
    socket.on('data', (chunk: Buffer) => {
      let response;
      try {
        response = conn.parser.feed(chunk);
      } catch (error) {
        kill(conn, conn.job ? codeOf(error, conn.job.req) : undefined);
        return;
      }
      if (!response) return;
      conn.lastUsed = performance.now();
      finishJob(conn, response.status, undefined, response.bodyBytes);
      if (response.keepAlive && !destroyed) release(conn);
      else kill(conn, undefined);
    });
    socket.on('error', (error) => {
      clearTimeout(connectTimer);
      kill(conn, conn.job ? codeOf(error, conn.job.req) : undefined);
    });
    socket.on('close', () => {
      clearTimeout(connectTimer);
      if (conn.dead) return;
      if (conn.job) {
        // A body that runs until close ends here; anything else closed mid-response is a reset.
        let response;
        try {
          response = conn.parser.end();
        } catch {
          response = undefined;
        }
        if (response) finishJob(conn, response.status, undefined, response.bodyBytes);
      }
      kill(conn, 'CONNECTION_RESET');
    });
    return conn;
  };

  const write = (conn: Conn, req: LoadRequest): void => {
    const wire = encodeRequest(req, hostHeader);
    if (typeof wire === 'string') conn.socket.write(wire, 'latin1');
    else conn.socket.write(wire);
  };

  const assign = (conn: Conn, job: Job): void => {
    conn.job = job;
    job.started = performance.now();
    if (conn.connected) write(conn, job.req);
  };

  /** A connection is free: give it the next queued request, or park it. */
  const release = (conn: Conn): void => {
    const job = queue.shift();
    if (job) {
      assign(conn, job);
      return;
    }
    idle.push(conn);
  };

  /** Starts queued requests on new connections while below the connection limit. */
  const pump = (): void => {
    while (queue.size > 0 && conns.size < options.connections && !destroyed) release(open());
    if (closing && quiet()) closing();
  };

  const takeIdle = (): Conn | undefined => {
    const now = performance.now();
    for (let conn = idle.pop(); conn; conn = idle.pop()) {
      if (!conn.dead && conn.parser.idle && now - conn.lastUsed < IDLE_REUSE_MS) return conn;
      kill(conn, undefined);
    }
    return undefined;
  };

  const sweep = setInterval(() => {
    const now = performance.now();
    for (const conn of conns) {
      if (conn.job && now - conn.job.started > options.timeoutMs) kill(conn, 'TIMEOUT');
    }
  }, SWEEP_MS);
  sweep.unref();

  return {
    origin,
    send(req, done) {
      if (destroyed) {
        done(0, 'CANCELLED', 0);
        return;
      }
      if (unsafeRequest(req)) {
        done(0, 'USAGE', 0);
        return;
      }
      const job: Job = { req, done, started: 0 };
      const conn = takeIdle() ?? (conns.size < options.connections ? open() : undefined);
      if (conn) assign(conn, job);
      else queue.push(job);
    },
    async fetch(req) {
      if (destroyed) throw new HarnessError('INTERRUPTED', `${req.method} ${origin}${req.path} was not sent: the transport is closed`);
      return priming.fetch(req, {
        origin,
        timeoutMs: options.timeoutMs,
        connectTimeoutMs,
        maxBytes: options.maxFetchBytes ?? DEFAULT_FETCH_BYTES,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    },
    async close() {
      if (!quiet()) {
        await new Promise<void>((resolve) => {
          closing = resolve;
        });
      }
      closing = undefined;
      clearInterval(sweep);
      for (const conn of [...conns]) {
        conn.dead = true;
        conn.socket.end();
      }
      conns.clear();
      idle.length = 0;
      await priming.close();
    },
    async destroy() {
      destroyed = true;
      clearInterval(sweep);
      const waiting = queue.drain();
      for (const job of waiting) job.done(0, 'CANCELLED', 0);
      for (const conn of [...conns]) {
        conn.dead = true;
        conn.socket.destroy();
        if (conn.job) finishJob(conn, 0, 'CANCELLED', 0);
      }
      conns.clear();
      idle.length = 0;
      await priming.destroy();
    },
  };
}

export { ParseError };
