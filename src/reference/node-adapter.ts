/**
 * node:http adapter for a {@link ReferenceHandler}.
 *
 * - Reads the body only up to the route's limit + 1 byte; a larger body (or a Content-Length announcing
 *   one) is handed to the handler as `bodyExceeded`, and the rest is never buffered.
 * - After an answer given before the body was fully read, the connection is closed politely: our side is
 *   half-closed (FIN) and what the client still sends is discarded for a short while, so it can read the
 *   answer instead of seeing a reset; then the socket is destroyed.
 * - Malformed HTTP gets 400 (431 for oversized headers, 408 when too slow) from the `clientError` hook,
 *   never a crash, and only after every earlier request on the connection was answered (connection.ts).
 * - Framing Node lets through (two Host fields, a coding other than chunked) is refused before the body
 *   is read (400, or 501 for an unknown transfer coding).
 * - Anything the handler throws (a wrapped handler may) becomes 503 + a log line; see reference.ts for why
 *   503 and not 400 or 500.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { failConnection, framingProblem, isSilenced, owe, type FramingProblem } from './connection.js';
import { installFastLane } from './fast-lane.js';
import { json } from './http.js';
import type { Logger, ReferenceHandler, ReferenceRequest, ReferenceResponse } from './types.js';

export interface NodeAdapterOptions {
  handler: ReferenceHandler;
  limitFor: (method: string, url: string) => number;
  logger?: Logger;
  /** How long an unread body is drained after an early answer before the socket is destroyed. */
  lingerMs?: number;
}

/** HTTP, or HTTPS when the server was given a certificate. */
export type Server = HttpServer | HttpsServer;

export interface ReferenceServerOptions extends NodeAdapterOptions {
  /** PEM certificate (chain) and key: serve HTTPS instead of HTTP. */
  tls?: { certPem: string; keyPem: string };
  /**
   * Plain requests answered without node:http's per-request machinery (fast-lane.ts); default on for HTTP.
   * Off, every request goes through node:http (the tests compare the two byte for byte).
   */
  fastLane?: boolean;
  /** The connection bounds below, shorter (tests of the bounds themselves). */
  bounds?: Partial<ConnectionBounds>;
}

/** node:http's connection bounds, as the reference sets them. */
export interface ConnectionBounds {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionsCheckingInterval: number;
}

const LINGER_MS = 2000;
/** Bytes drained during the linger period at most (then the socket goes at once). */
const LINGER_BYTES = 1024 * 1024;

export function createNodeListener(options: NodeAdapterOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const log = options.logger ?? ((line: string) => process.stderr.write(`[reference] ${line}\n`));
  const lingerMs = options.lingerMs ?? LINGER_MS;
  // Callbacks, not an async function: the body is read and the answer written with one promise per
  // request (the handler's), where the async version made one per step (bench/hot-path-bench.ts).
  const failed = (res: ServerResponse, error: unknown): void => {
    log(`adapter error: ${(error as Error)?.message ?? String(error)}`);
    if (!res.headersSent && !res.destroyed) {
      try {
        send(res, fallback503(), false, lingerMs);
        return;
      } catch {
        // fall through to destroy
      }
    }
    res.destroy();
  };
  return (req, res) => {
    if (!owe(req, res)) return;
    try {
      serve(req, res);
    } catch (error) {
      failed(res, error);
    }
  };

  function serve(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const method = req.method ?? 'GET';
    let limit = 0;
    try {
      limit = Math.max(0, options.limitFor(method, url));
    } catch (error) {
      log(`limitFor failed: ${(error as Error)?.message ?? String(error)}`);
    }
    const framing = framingProblem(req);
    if (framing !== undefined) {
      send(res, framingRefusal(framing), true, lingerMs);
      return;
    }
    readBody(req, res, limit, (body) => {
      if (body === undefined) return; // the client went away mid-body: nobody to answer
      // The connection failed while the body arrived (too slow): the error answer is this request's answer.
      if (isSilenced(res)) return;
      try {
        answer(req, res, method, url, body);
      } catch (error) {
        failed(res, error);
      }
    });
  }

  function answer(req: IncomingMessage, res: ServerResponse, method: string, url: string, body: ReadBody): void {
    const request: ReferenceRequest = {
      method,
      url,
      headers: flattenHeaders(req),
      remoteAddress: req.socket.remoteAddress ?? '',
      body: body.bytes,
      bodyExceeded: body.exceeded,
    };
    let pending: ReferenceResponse | Promise<ReferenceResponse>;
    try {
      pending = options.handler(request);
    } catch (error) {
      pending = Promise.reject(error);
    }
    // One then() with both callbacks: the answer or the handler's failure, each written by deliver, which
    // never throws.
    const deliver = (response: ReferenceResponse): void => {
      try {
        if (res.destroyed || isSilenced(res)) return;
        try {
          send(res, response, !body.complete, lingerMs);
        } catch (error) {
          // An invalid status or header value (a wrapped handler may produce one): answer something valid.
          log(`invalid response from handler: ${(error as Error)?.message ?? String(error)}`);
          // The refused writeHead left its reason phrase behind ("503 OK"): the 503's own goes out.
          res.statusMessage = '';
          if (!res.headersSent) send(res, fallback503(), !body.complete, lingerMs);
          else res.destroy();
        }
      } catch (error) {
        failed(res, error);
      }
    };
    // A handler may answer at once (no promise to wait for) or later.
    if (!(pending instanceof Promise)) {
      deliver(pending);
      return;
    }
    pending.then(deliver, (error: unknown) => {
      log(`handler threw on ${method} ${url.split('?')[0]}: ${(error as Error)?.stack ?? String(error)}`);
      deliver(fallback503());
    });
  }
}

export function fallback503(): ReferenceResponse {
  return json(503, { error: 'temporarily_unavailable', error_description: 'the request could not be processed; try again' }, { 'retry-after': '1' });
}

function framingRefusal(problem: FramingProblem): ReferenceResponse {
  return json(problem.status, { error: 'invalid_request', error_description: problem.description });
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  const given = req.headers;
  for (const name in given) {
    const value = given[name];
    if (value === undefined) continue;
    headers[name] = typeof value === 'string' ? value : value.join(', ');
  }
  return headers;
}

interface ReadBody {
  bytes: Buffer;
  exceeded: boolean;
  /** The whole body was read (the connection can be reused). */
  complete: boolean;
}

/** Calls `resolve` once: with the body, or undefined when the client went away before it was read. */
function readBody(req: IncomingMessage, res: ServerResponse, limit: number, resolve: (body: ReadBody | undefined) => void): void {
  const announced = req.headers['content-length'];
  if (announced !== undefined && /^\d+$/.test(announced) && Number(announced) > limit) {
    // Known too large before a byte is read (and no "100 Continue" is sent for it).
    resolve({ bytes: Buffer.alloc(0), exceeded: true, complete: false });
    return;
  }
  const expect = req.headers.expect;
  if (expect !== undefined && /^\s*100-continue\s*$/i.test(expect)) res.writeContinue();
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const finish = (value: ReadBody | undefined): void => {
    if (done) return;
    done = true;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onGone);
    req.off('aborted', onGone);
    req.off('close', onClose);
    resolve(value);
  };
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > limit) {
      // Keep the prefix (handlers may want to log its start), stop reading here.
      chunks.push(chunk.subarray(0, Math.max(0, chunk.length - (size - limit))));
      req.pause();
      finish({ bytes: Buffer.concat(chunks), exceeded: true, complete: false });
      return;
    }
    chunks.push(chunk);
  };
  // One chunk (a webhook's body usually arrives with its headers): no copy.
  const onEnd = (): void => finish({ bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), exceeded: false, complete: true });
  const onGone = (): void => finish(undefined);
  const onClose = (): void => {
    if (!req.complete) finish(undefined);
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onGone);
  req.on('aborted', onGone);
  req.on('close', onClose);
}

function send(res: ServerResponse, response: ReferenceResponse, bodyUnread: boolean, lingerMs: number): void {
  const { body } = response;
  // A string body is handed to Node as a string: it goes out in one write with the head (a Buffer is a
  // second chunk, a writev); the bytes on the wire are the same.
  const headers: Record<string, string | number> = Object.assign({}, response.headers);
  headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
  if (bodyUnread) headers.connection = 'close';
  res.writeHead(response.status, headers);
  if (bodyUnread) lingerThenDestroy(res.req, lingerMs);
  res.end(body, 'utf8');
}

/**
 * Node ends a `Connection: close` socket and destroys it as soon as our FIN is flushed. Bytes the client is
 * still sending then meet a closed socket, and the reset that answers them can wipe our response from the
 * client's receive buffer before it reads it. So for a request whose body was not read: half-close only,
 * drain and discard what still arrives for a bounded time and size, then destroy.
 */
function lingerThenDestroy(req: IncomingMessage, lingerMs: number): void {
  const socket = req.socket;
  if (socket.destroyed) return;
  // Replaces Node's "end, then destroy once flushed" for this one socket with "end, keep reading".
  socket.destroySoon = function halfCloseOnly(this: Socket) {
    if (this.writable) this.end();
  };
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > LINGER_BYTES) socket.destroy();
  });
  req.on('error', () => socket.destroy());
  req.resume();
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

export interface ReferenceServer {
  server: Server;
  /** `http://host:port` as bound (IPv6 hosts in brackets). */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ServeOptions extends NodeAdapterOptions {
  host?: string;
  port?: number;
}

/** Creates the server with the timeouts and malformed-request handling, and listens. */
export function createReferenceServer(options: ReferenceServerOptions): Server {
  const log = options.logger ?? ((line: string) => process.stderr.write(`[reference] ${line}\n`));
  const listener = createNodeListener(options);
  // Slow-loris bounds: headers within 10 s, a whole request within 30 s.
  // Node enforces both only when it sweeps its connections, every connectionsCheckingInterval (30 s by
  // default, which let headers trickle for up to 40 s and bodies for up to 60 s); a sweep every 250 ms
  // keeps both within a quarter second of the documented figure, for the price of a walk over the active
  // connections four times a second.
  const bounds: ConnectionBounds = { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 250, ...options.bounds };
  const server: Server = options.tls
    ? createHttpsServer({ ...bounds, cert: options.tls.certPem, key: options.tls.keyPem }, listener)
    : createServer(bounds, listener);
  // A client that half-closes after its last request (`nc -N`, `curl --no-keepalive` on some stacks) must
  // still get the answers: by default Node aborts the pending requests on the FIN and ends the socket, so a
  // webhook could run with its answer never sent. Half-open, Node answers them and closes after the last
  // (an untyped but long-standing field of http.Server, read in socketOnEnd).
  Object.assign(server, { httpAllowHalfOpen: true });
  // Expect: 100-continue goes through the same listener, which decides whether to send 100.
  server.on('checkContinue', listener);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
    failConnection(socket, status);
  });
  // CONNECT (a proxy's method) would otherwise make Node drop the connection with earlier answers unsent.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => failConnection(socket, '400 Bad Request'));
  server.on('error', (error) => log(`server error: ${error.message}`));
  if (!options.tls && options.fastLane !== false) {
    installFastLane(server as HttpServer, { handler: options.handler, limitFor: options.limitFor, log, fallback: fallback503, sweepMs: bounds.connectionsCheckingInterval });
  }
  return server;
}

export async function serveReference(options: ServeOptions): Promise<ReferenceServer> {
  const server = createReferenceServer(options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}`,
    port: address.port,
    close: () => closeServer(server),
  };
}

/** Stops accepting, lets in-flight requests finish briefly, then drops idle and remaining connections. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 1000).unref();
  });
}
