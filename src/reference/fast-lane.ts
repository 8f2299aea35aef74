/**
 * The fast lane: plain requests answered without node:http's per-request machinery (issue 49).
 *
 * Under load a webhook cost the reference several times what its rules cost, and most of the difference
 * was node:http's own per-request work (an IncomingMessage and a ServerResponse, both streams, their
 * listeners and timers, the body through a Readable), not HMAC or JSON. So the reference's HTTP server
 * takes each new connection here first. A request that is plain in every way (listed below) and wholly in
 * what arrived is answered here: one read, one handler call, one write. Anything else hands the connection,
 * with every byte not yet answered, to node:http (llhttp and the adapter in node-adapter.ts) for the rest of
 * its life: the lane never parses what it is not sure of, so every refusal, timeout and framing rule stays
 * node:http's.
 *
 * Plain means: `POST <origin-form target> HTTP/1.1`; field names tokens, met once each; values visible
 * ASCII (inner spaces and tabs allowed, none at either end); Host present; Content-Length present, digits
 * only, within the route's limit; no Transfer-Encoding, Expect, Upgrade, and Connection absent or
 * `keep-alive`; the head within 16 KiB and 100 fields; head and body both in what was read (a request cut
 * between reads goes to node:http, which applies its own header and request timeouts).
 *
 * Answers are written byte for byte as node:http writes them (status line, the handler's fields in order,
 * Content-Length, Date, `Connection: keep-alive` and `Keep-Alive: timeout=N`); tests/reference/
 * fast-lane.test.ts sends the same requests to a server with and without the lane and compares every byte
 * but the date. An answer node:http would refuse to write (a status or field a wrapped handler made
 * invalid) becomes the adapter's 503, as there.
 *
 * Connections are bounded the way node:http bounds them: idle keep-alive ones close a second past the
 * server's keepAliveTimeout (node:http's grace), a new one that never sends its first request gets
 * node:http's 408 after its headersTimeout, a client that does not read its answers is not read either
 * until they drain; server.close()/closeIdleConnections()/closeAllConnections() include the lane's.
 */
import { STATUS_CODES, type Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import { failConnection } from './connection.js';
import type { Logger, ReferenceHandler, ReferenceRequest, ReferenceResponse } from './types.js';

export interface FastLaneOptions {
  handler: ReferenceHandler;
  limitFor: (method: string, url: string) => number;
  log: Logger;
  /** The adapter's answer when the handler fails or answers something unwritable. */
  fallback: () => ReferenceResponse;
  /** How often idle and silent connections are looked at (the server's own sweep interval). */
  sweepMs: number;
}

/** node:http's default maxHeaderSize: a larger head goes to node:http, which answers 431. */
const MAX_HEAD_BYTES = 16 * 1024;
const MAX_FIELDS = 100;
/** node:http's keep-alive timeout buffer (a server's idle connection closes this long after the timeout). */
const KEEP_ALIVE_GRACE_MS = 1000;
/**
 * A plain head: `POST <origin-form target> HTTP/1.1` (the target in the characters RFC 3986 allows there),
 * then field lines of a token name, a colon, optional blanks and a value that is empty or starts and ends
 * with a visible ASCII character (inner blanks allowed), CRLF between lines. Every line is anchored by the
 * CRLF, which no class here matches, so a failing head costs time linear in its length (under 16 KiB).
 */
const PLAIN_HEAD = /^POST \/[A-Za-z0-9\-._~%!$&'()*+,;=:@\/?]* HTTP\/1\.1(?:\r\n[!#$%&'*+\-.^_`|~0-9A-Za-z]+:[\t ]*(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?)*$/;
const DIGITS = /^\d{1,15}$/;
/** The fields whose presence means the request is not plain (its framing or its connection is special). */
const NOT_PLAIN = new Set(['transfer-encoding', 'expect', 'upgrade', 'te', 'trailer', 'http2-settings', 'proxy-connection', 'keep-alive']);
/** A field name (RFC 9110 token); node:http checks the names it writes with the same. */
const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
/** node:http's test for a handler's `Connection: close` (the connection ends after the answer). */
const CONNECTION_CLOSE = /(?:^|\W)close(?:$|\W)/i;

let dateCache = '';
let dateExpires = 0;

/** node:http's Date value, made once a second as node:http makes it. */
function httpDate(now: number): string {
  if (now >= dateExpires) {
    dateCache = new Date(now).toUTCString();
    dateExpires = now - (now % 1000) + 1000;
  }
  return dateCache;
}

/** A plain request found in a buffer, and where the next one starts. */
interface Found {
  request: ReferenceRequest;
  end: number;
}

/**
 * The plain request at `offset` of `data`; 'partial' when its head or body is not all there; 'not plain'
 * when node:http must see it.
 */
function findRequest(data: Buffer, offset: number, remoteAddress: string, limitFor: FastLaneOptions['limitFor']): Found | 'partial' | 'not plain' {
  const headEnd = data.indexOf('\r\n\r\n', offset, 'latin1');
  if (headEnd < 0) return data.length - offset > MAX_HEAD_BYTES ? 'not plain' : 'partial';
  if (headEnd - offset > MAX_HEAD_BYTES) return 'not plain';
  const head = data.toString('latin1', offset, headEnd);
  // One linear match decides that every line is what the walk below expects: the request line, then
  // token names and visible-ASCII values that do not end in a blank, CRLF between, nothing else.
  if (!PLAIN_HEAD.test(head)) return 'not plain';
  // Names compared in lower case: the head is ASCII, so both strings have the same offsets.
  const lower = head.toLowerCase();
  let lineEnd = head.indexOf('\r\n');
  const url = head.slice(5, (lineEnd < 0 ? head.length : lineEnd) - 9);
  const headers: Record<string, string> = {};
  let fields = 0;
  while (lineEnd >= 0) {
    const lineStart = lineEnd + 2;
    lineEnd = head.indexOf('\r\n', lineStart);
    const colon = head.indexOf(':', lineStart);
    const name = lower.slice(lineStart, colon);
    if ((fields += 1) > MAX_FIELDS || headers[name] !== undefined || NOT_PLAIN.has(name)) return 'not plain';
    let from = colon + 1;
    while (head.charCodeAt(from) === 32 || head.charCodeAt(from) === 9) from += 1;
    headers[name] = head.slice(from, lineEnd < 0 ? head.length : lineEnd);
  }
  const connection = headers.connection;
  if (headers.host === undefined || (connection !== undefined && connection.toLowerCase() !== 'keep-alive')) return 'not plain';
  const length = headers['content-length'];
  if (length === undefined || !DIGITS.test(length)) return 'not plain';
  const size = Number(length);
  let limit = 0;
  try {
    limit = limitFor('POST', url);
  } catch {
    return 'not plain';
  }
  // Over the limit: node:http's path answers 413 without reading it and lingers (node-adapter.ts).
  if (size > limit) return 'not plain';
  const bodyStart = headEnd + 4;
  const end = bodyStart + size;
  if (end > data.length) return 'partial';
  return {
    request: { method: 'POST', url, headers, remoteAddress, body: data.subarray(bodyStart, end), bodyExceeded: false },
    end,
  };
}

/** A handler's fields as node:http writes them, split where the adapter's content-length goes. */
interface Fields {
  /** The lines before content-length (all of them when the handler named none). */
  before: string;
  after: string;
  date: boolean;
  connection: boolean;
  close: boolean;
}

/** The lines of a frozen headers object (a handler's shared one, e.g. every 200's), checked once. */
const frozenFields = new WeakMap<object, Fields | undefined>();

/** The lines of `headers`, undefined when node:http would refuse to write one. */
function fieldsOf(headers: Record<string, string>): Fields | undefined {
  const fields: Fields = { before: '', after: '', date: false, connection: false, close: false };
  let lengthSeen = false;
  // The adapter's send(): the handler's fields in their order, its content-length replaced in place.
  for (const name in headers) {
    if (name === 'content-length') {
      lengthSeen = true;
      continue;
    }
    const value: unknown = headers[name];
    if (value === undefined || Array.isArray(value)) return undefined;
    const text = String(value);
    if (!TOKEN.test(name) || INVALID_VALUE.test(text)) return undefined;
    const lower = name.toLowerCase();
    // A handler's Transfer-Encoding makes node:http frame the body: not written here.
    if (lower === 'transfer-encoding') return undefined;
    if (lower === 'date') fields.date = true;
    else if (lower === 'connection') {
      fields.connection = true;
      if (CONNECTION_CLOSE.test(text)) fields.close = true;
    }
    if (lengthSeen) fields.after += `${name}: ${text}\r\n`;
    else fields.before += `${name}: ${text}\r\n`;
  }
  return fields;
}

/**
 * The answer as node:http writes it for `writeHead(status, headers)` + `end(body)` on a keep-alive
 * connection; undefined when node:http would throw (the caller answers the fallback instead).
 */
function answerBytes(response: ReferenceResponse, keepAliveSeconds: number, now: number): { head: string; close: boolean; body: boolean } | undefined {
  const status = response.status;
  if (!Number.isInteger(status) || status < 200 || status > 999) return undefined;
  const { body, headers } = response;
  let fields: Fields | undefined;
  if (Object.isFrozen(headers)) {
    fields = frozenFields.get(headers);
    if (fields === undefined && !frozenFields.has(headers)) frozenFields.set(headers, (fields = fieldsOf(headers)));
  } else fields = fieldsOf(headers);
  if (fields === undefined) return undefined;
  const length = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\n${fields.before}content-length: ${length}\r\n${fields.after}`;
  const { date, connection, close } = fields;
  if (!date) head += `Date: ${httpDate(now)}\r\n`;
  if (!connection) head += `Connection: keep-alive\r\nKeep-Alive: timeout=${keepAliveSeconds}\r\n`;
  // node:http sends no body with 204 and 304 (it drops one given).
  return { head: `${head}\r\n`, close, body: status !== 204 && status !== 304 };
}

/**
 * Puts the lane in front of `server`'s own connection listener (plain HTTP only: a TLS server's
 * connections are TLS sockets, which node:https hands to node:http itself).
 */
export function installFastLane(server: HttpServer, options: FastLaneOptions): void {
  const [nodeListener] = server.listeners('connection') as Array<(this: HttpServer, socket: Socket) => void>;
  if (nodeListener === undefined) throw new Error('node:http registered no connection listener');
  server.removeListener('connection', nodeListener);
  const lanes = new Set<LaneConnection>();
  const { handler, limitFor, log, fallback } = options;

  class LaneConnection {
    readonly socket: Socket;
    readonly remoteAddress: string;
    /** Read but not yet answered: the start of the next request(s). */
    pending: Buffer | undefined;
    /** A handler's answer is awaited: later requests wait their turn (and reading pauses once one comes). */
    busy = false;
    /** A request was answered here: when nothing is read it is keep-alive idle, not new. */
    answered = false;
    /** The client half-closed: close once every answer is written. */
    ended = false;
    /** Answers wait in the socket's buffer (the client does not read): nothing more is read until they drain. */
    blocked = false;
    lastActive: number;
    readonly created: number;

    constructor(socket: Socket) {
      this.socket = socket;
      this.remoteAddress = socket.remoteAddress ?? '';
      this.created = this.lastActive = Date.now();
      socket.setNoDelay(true);
      socket.on('data', this.onData);
      socket.on('end', this.onEnd);
      socket.on('error', this.onError);
      socket.on('close', this.onClose);
    }

    readonly onData = (chunk: Buffer): void => {
      this.lastActive = Date.now();
      this.pending = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
      if (!this.busy && !this.blocked) this.drain();
      // Bytes while an answer is awaited or answers wait to drain: nothing more is read (nor the client's
      // FIN) until then, so what waits is one read at most. Pausing only then keeps a lone request free of it.
      else this.reading();
    };

    readonly onEnd = (): void => {
      this.ended = true;
      if (!this.busy && !this.blocked) this.drain();
    };

    readonly onError = (): void => {
      this.socket.destroy();
    };

    readonly onClose = (): void => {
      lanes.delete(this);
    };

    /** Answers every whole plain request read, in order; hands off at the first that is not. */
    drain(): void {
      const { socket } = this;
      let data = this.pending;
      let offset = 0;
      let corked = false;
      try {
        while (data !== undefined && offset < data.length && !socket.destroyed) {
          const found = findRequest(data, offset, this.remoteAddress, limitFor);
          if (typeof found === 'string') {
            // Node's parser takes it from here, the bytes not yet answered first.
            this.pending = data.subarray(offset);
            this.handOff();
            return;
          }
          offset = found.end;
          let answer: ReferenceResponse | Promise<ReferenceResponse>;
          try {
            answer = handler(found.request);
          } catch (error) {
            answer = Promise.reject(error);
          }
          if (answer instanceof Promise) {
            this.busy = true;
            this.pending = offset < data.length ? data.subarray(offset) : undefined;
            this.reading();
            const request = found.request;
            answer.then(
              (response) => this.settle(response),
              (error: unknown) => {
                log(`handler threw on ${request.method} ${request.url.split('?')[0]}: ${(error as Error)?.stack ?? String(error)}`);
                this.settle(fallback());
              },
            );
            return;
          }
          if (!corked && offset < data.length) {
            // More requests in this read: their answers go out in one write.
            socket.cork();
            corked = true;
          }
          if (!this.write(answer)) return;
          if (this.blocked) {
            // The rest waits until the client has read these answers.
            this.pending = offset < data.length ? data.subarray(offset) : undefined;
            return;
          }
        }
        this.pending = undefined;
        if (this.ended && socket.writable) socket.end();
      } finally {
        if (corked) socket.uncork();
      }
    }

    settle(response: ReferenceResponse): void {
      this.busy = false;
      if (this.socket.destroyed) return;
      if (!this.write(response)) return;
      this.reading();
      // Blocked by this very answer: the rest waits for 'drain' (onDrain goes on from there).
      if (!this.blocked) this.drain();
    }

    /** Writes one answer; false when the connection ends with it. */
    write(response: ReferenceResponse): boolean {
      const now = Date.now();
      this.answered = true;
      this.lastActive = now;
      const keepAlive = Math.floor(server.keepAliveTimeout / 1000);
      let bytes = answerBytes(response, keepAlive, now);
      if (bytes === undefined) {
        log(`invalid response from handler: status ${String(response.status)}`);
        response = fallback();
        bytes = answerBytes(response, keepAlive, now)!;
      }
      const { socket } = this;
      let flushed: boolean;
      if (!bytes.body) flushed = socket.write(bytes.head, 'latin1');
      else if (typeof response.body === 'string') flushed = socket.write(bytes.head + response.body, 'utf8');
      else {
        socket.write(bytes.head, 'latin1');
        flushed = socket.write(response.body);
      }
      if (!flushed && !this.blocked) {
        // A client that sends and never reads: its answers would pile up here without bound.
        this.blocked = true;
        this.reading();
        socket.once('drain', this.onDrain);
      }
      if (bytes.close) {
        lanes.delete(this);
        this.pending = undefined;
        socket.end();
        return false;
      }
      return true;
    }

    readonly onDrain = (): void => {
      this.blocked = false;
      this.reading();
      if (!this.busy) this.drain();
    };

    /** Reads while nothing waits: no answer in the socket's buffer, no bytes behind an awaited answer. */
    reading(): void {
      const wait = this.blocked || (this.busy && this.pending !== undefined);
      if (wait && !this.socket.isPaused()) this.socket.pause();
      else if (!wait && this.socket.isPaused()) this.socket.resume();
    }

    handOff(): void {
      lanes.delete(this);
      const { socket, pending } = this;
      socket.removeListener('drain', this.onDrain);
      // node:http reads only a socket nobody paused; it keeps its own bounds on what it buffers.
      if (socket.isPaused()) socket.resume();
      socket.removeListener('data', this.onData);
      socket.removeListener('end', this.onEnd);
      socket.removeListener('error', this.onError);
      socket.removeListener('close', this.onClose);
      this.pending = undefined;
      // Reading pauses once bytes wait behind an awaited answer, so the client's FIN is read only when
      // nothing waits: a connection ending here has a cut request at most, which node:http answers 400.
      if (this.ended) {
        failConnection(socket, '400 Bad Request');
        return;
      }
      if (pending !== undefined && pending.length > 0) socket.unshift(pending);
      nodeListener.call(server, socket);
    }

    idle(): boolean {
      return !this.busy && !this.blocked && this.pending === undefined;
    }
  }

  server.on('connection', (socket: Socket) => {
    lanes.add(new LaneConnection(socket));
  });

  // The bounds node:http keeps on its own connections, kept on the lane's by one sweep.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const lane of lanes) {
      if (!lane.idle()) continue;
      if (lane.answered) {
        // node:http waits a second past the timeout it announces, so that a client sending just as its
        // own copy of the timeout ends does not meet a closed connection: so does the lane.
        if (server.keepAliveTimeout > 0 && now - lane.lastActive >= server.keepAliveTimeout + KEEP_ALIVE_GRACE_MS) {
          lanes.delete(lane);
          lane.socket.destroy();
        }
      } else if (server.headersTimeout > 0 && now - lane.created >= server.headersTimeout) {
        // A connection that never sent its first request: node:http's 408, written the way it writes it.
        lanes.delete(lane);
        failConnection(lane.socket, '408 Request Timeout');
      }
    }
  }, options.sweepMs);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));

  const closeIdle = server.closeIdleConnections.bind(server);
  const closeAll = server.closeAllConnections.bind(server);
  server.closeIdleConnections = () => {
    closeIdle();
    for (const lane of lanes) {
      if (!lane.idle()) continue;
      lanes.delete(lane);
      lane.socket.destroy();
    }
  };
  server.closeAllConnections = () => {
    closeAll();
    for (const lane of lanes) lane.socket.destroy();
    lanes.clear();
  };
}
