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
import { ERROR_SAMPLE_BODY_BYTES } from './error-samples.js';
import { encodeRequest, FifoQueue, unsafeRequest } from './load-wire.js';
import { HarnessError } from '../errors.js';
import { createPrimingClient, type PrimingClient } from '../client/load-fetch.js';
import { toTransportError } from '../client/transport-errors.js';
import type { LoadDone, LoadRequest, LoadTransport, LoadTransportOptions } from './load-transport-api.js';

export type { LoadDone, LoadRequest, LoadTransport, LoadTransportOptions } from './load-transport-api.js';

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
  return new ConnectionPool(options);
}

/**
 * The pool behind a LoadTransport: up to `connections` keep-alive sockets, each with at most one request
 * in flight; requests beyond that wait in a FIFO until a connection frees. One sweep timer checks every
 * request against the timeout.
 */
class ConnectionPool implements LoadTransport {
  readonly origin: string;
  private readonly secure: boolean;
  private readonly host: string;
  private readonly port: number;
  private readonly hostHeader: string;
  private readonly connectTimeoutMs: number;
  private readonly ca: string[] | undefined;
  private readonly conns = new Set<Conn>();
  private readonly idle: Conn[] = [];
  private readonly queue = new FifoQueue<Job>();
  private closing: (() => void) | undefined;
  private destroyed = false;
  private readonly priming: PrimingClient;
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly options: LoadTransportOptions) {
    const url = new URL(options.origin);
    this.origin = url.origin;
    this.secure = url.protocol === 'https:';
    this.host = url.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(url.port) || (this.secure ? 443 : 80);
    this.hostHeader = url.host;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    this.ca = options.ca ? [...rootCertificates, options.ca] : undefined;
    this.priming = createPrimingClient(this.origin, {
      connectTimeoutMs: this.connectTimeoutMs,
      timeoutMs: options.timeoutMs,
      insecureSkipVerify: options.insecureSkipVerify ?? false,
      ...(this.ca ? { ca: this.ca } : {}),
    });
    this.sweep = setInterval(() => {
      const now = performance.now();
      for (const conn of this.conns) {
        if (conn.job && now - conn.job.started > options.timeoutMs) this.kill(conn, 'TIMEOUT');
      }
    }, SWEEP_MS);
    this.sweep.unref();
  }

  send(req: LoadRequest, done: LoadDone): void {
    if (this.destroyed) {
      done(0, 'CANCELLED', 0);
      return;
    }
    if (unsafeRequest(req)) {
      done(0, 'USAGE', 0);
      return;
    }
    const job: Job = { req, done, started: 0 };
    const conn = this.takeIdle() ?? (this.conns.size < this.options.connections ? this.open() : undefined);
    if (conn) this.assign(conn, job);
    else this.queue.push(job);
  }

  async fetch(req: LoadRequest): Promise<{ status: number; body: Buffer }> {
    if (this.destroyed) throw new HarnessError('INTERRUPTED', `${req.method} ${this.origin}${req.path} was not sent: the transport is closed`);
    return this.priming.fetch(req, {
      origin: this.origin,
      timeoutMs: this.options.timeoutMs,
      connectTimeoutMs: this.connectTimeoutMs,
      maxBytes: this.options.maxFetchBytes ?? DEFAULT_FETCH_BYTES,
      ...(this.options.signal ? { signal: this.options.signal } : {}),
    });
  }

  async close(): Promise<void> {
    if (!this.quiet()) {
      await new Promise<void>((resolve) => {
        this.closing = resolve;
      });
    }
    this.closing = undefined;
    clearInterval(this.sweep);
    for (const conn of [...this.conns]) {
      conn.dead = true;
      conn.socket.end();
    }
    this.conns.clear();
    this.idle.length = 0;
    await this.priming.close();
  }

  async destroy(): Promise<void> {
    this.destroyed = true;
    clearInterval(this.sweep);
    for (const job of this.queue.drain()) job.done(0, 'CANCELLED', 0);
    for (const conn of [...this.conns]) {
      conn.dead = true;
      conn.socket.destroy();
      if (conn.job) this.finishJob(conn, 0, 'CANCELLED', 0);
    }
    this.conns.clear();
    this.idle.length = 0;
    await this.priming.destroy();
  }

  private codeOf(error: unknown, req: LoadRequest): string {
    const { options, origin, connectTimeoutMs } = this;
    return toTransportError(error, { method: req.method, url: origin + req.path, timeoutMs: options.timeoutMs, connectTimeoutMs, timedOut: false }).code;
  }

  /** Nothing queued, nothing in flight: what close() waits for. */
  private quiet(): boolean {
    if (this.queue.size > 0) return false;
    for (const conn of this.conns) if (conn.job) return false;
    return true;
  }

  private finishJob(conn: Conn, status: number, error: string | undefined, bytes: number, body?: Buffer): void {
    const job = conn.job;
    conn.job = undefined;
    if (job) job.done(status, error, bytes, body);
    if (this.closing && this.quiet()) this.closing();
  }

  private kill(conn: Conn, error: string | undefined): void {
    if (conn.dead) return;
    conn.dead = true;
    this.conns.delete(conn);
    conn.socket.destroy();
    if (conn.job) this.finishJob(conn, 0, error ?? 'CONNECTION_RESET', 0);
    // Work waiting for a connection must not stall because this one died.
    this.pump();
  }

  private open(): Conn {
    const { secure, host, port, ca, options } = this;
    const socket = secure
      ? tlsConnect({ host, port, servername: isIP(host) ? undefined : host, ca, rejectUnauthorized: !options.insecureSkipVerify, ALPNProtocols: ['http/1.1'] })
      : netConnect({ host, port });
    socket.setNoDelay(true);
    const conn: Conn = { socket, parser: new ResponseParser(options.keepBodyOf, ERROR_SAMPLE_BODY_BYTES), connected: false, job: undefined, lastUsed: performance.now(), dead: false };
    this.conns.add(conn);
    const connectTimer = setTimeout(() => this.kill(conn, 'TIMEOUT'), this.connectTimeoutMs);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      clearTimeout(connectTimer);
      conn.connected = true;
      if (conn.job) this.write(conn, conn.job.req);
    });
    socket.on('data', (chunk: Buffer) => this.onData(conn, chunk));
    socket.on('error', (error) => {
      clearTimeout(connectTimer);
      this.kill(conn, conn.job ? this.codeOf(error, conn.job.req) : undefined);
    });
    socket.on('close', () => {
      clearTimeout(connectTimer);
      this.onClose(conn);
    });
    return conn;
  }

  private onData(conn: Conn, chunk: Buffer): void {
    let response;
    try {
      response = conn.parser.feed(chunk);
    } catch (error) {
      this.kill(conn, conn.job ? this.codeOf(error, conn.job.req) : undefined);
      return;
    }
    if (!response) return;
    conn.lastUsed = performance.now();
    this.finishJob(conn, response.status, undefined, response.bodyBytes, response.body);
    if (response.keepAlive && !this.destroyed) this.release(conn);
    else this.kill(conn, undefined);
  }

  private onClose(conn: Conn): void {
    if (conn.dead) return;
    if (conn.job) {
      // A body that runs until close ends here; anything else closed mid-response is a reset.
      let response;
      try {
        response = conn.parser.end();
      } catch {
        response = undefined;
      }
      if (response) this.finishJob(conn, response.status, undefined, response.bodyBytes, response.body);
    }
    this.kill(conn, 'CONNECTION_RESET');
  }

  private write(conn: Conn, req: LoadRequest): void {
    const wire = encodeRequest(req, this.hostHeader);
    if (typeof wire === 'string') conn.socket.write(wire, 'latin1');
    else conn.socket.write(wire);
  }

  private assign(conn: Conn, job: Job): void {
    conn.job = job;
    job.started = performance.now();
    if (conn.connected) this.write(conn, job.req);
  }

  /** A connection is free: give it the next queued request, or park it. */
  private release(conn: Conn): void {
    const job = this.queue.shift();
    if (job) {
      this.assign(conn, job);
      return;
    }
    this.idle.push(conn);
  }

  /** Starts queued requests on new connections while below the connection limit. */
  private pump(): void {
    while (this.queue.size > 0 && this.conns.size < this.options.connections && !this.destroyed) this.release(this.open());
    if (this.closing && this.quiet()) this.closing();
  }

  private takeIdle(): Conn | undefined {
    const now = performance.now();
    for (let conn = this.idle.pop(); conn; conn = this.idle.pop()) {
      if (!conn.dead && conn.parser.idle && now - conn.lastUsed < IDLE_REUSE_MS) return conn;
      this.kill(conn, undefined);
    }
    return undefined;
  }
}

export { ParseError };
