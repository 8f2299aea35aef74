/**
 * What a connection still owes its client, so that an error that ends it never costs an answer.
 *
 * HTTP/1.1 answers requests on a connection in order, and the client matches answers to requests by position
 * alone. Node parses every pipelined request in a TCP read before any handler answers; when a malformed one
 * follows in the same read, the parser fails and `clientError` fires while the earlier requests still wait
 * for their (possibly asynchronous) handlers. Node's own default then writes its 400 at once (unless an
 * answer has started), which the client takes for the FIRST pending request's answer; the real answers are
 * lost while their effects (a webhook's run, a claimed event ID) stay. So here the error answer waits until
 * every complete request before it has been answered, and goes out last, as the answer to the request that
 * failed. A request still incomplete when the error strikes (its body cut by a timeout or a broken chunk)
 * is the one that failed: its handler is told to stay silent, and the error answer is its answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

interface Pending {
  req: IncomingMessage;
  res: ServerResponse;
}

interface ConnectionState {
  pending: Set<Pending>;
  /** Called whenever an answer completes. */
  onSettled?: () => void;
  /** An error ended this connection: later requests and errors on it are ignored. */
  failed: boolean;
}

const connections = new WeakMap<Socket, ConnectionState>();
/** Responses whose request failed under them: the error answer replaces theirs. */
const silenced = new WeakSet<ServerResponse>();

/** How long the owed answers may take before the connection is dropped anyway (handlers are bounded by ~3 s). */
const OWED_WAIT_MS = 30_000;
/** After the error answer is flushed, what the client still sends is read and dropped this long (see lingerThenDestroy). */
const ERROR_LINGER_MS = 500;

function stateOf(socket: Socket): ConnectionState {
  let state = connections.get(socket);
  if (state === undefined) {
    state = { pending: new Set(), failed: false };
    connections.set(socket, state);
  }
  return state;
}

/**
 * Records that `res` is owed to the client until it finishes or the connection closes. False when the
 * connection has already failed (a timed-out request's body may still complete and the next request be
 * parsed after the 408 was decided): that request must neither run nor be answered.
 */
export function owe(req: IncomingMessage, res: ServerResponse): boolean {
  const state = stateOf(req.socket);
  if (state.failed) {
    silenced.add(res);
    return false;
  }
  const entry: Pending = { req, res };
  state.pending.add(entry);
  // 'close' only: a response emits it after 'finish' (Node defers it a tick) and when its connection goes
  // first, so one listener covers both ends, for one closure per request instead of two `once` wrappers.
  res.on('close', () => {
    if (state.pending.delete(entry)) state.onSettled?.();
  });
  return true;
}

/** The request of `res` failed after it was handed over (see above): its handler must not answer. */
export function isSilenced(res: ServerResponse): boolean {
  return silenced.has(res);
}

/** A raw error answer: the only kind the server can give once the parser has failed. */
function errorAnswer(status: string): string {
  const description = status.startsWith('408')
    ? 'the request did not arrive in time'
    : status.startsWith('431')
      ? 'request header fields too large'
      : 'malformed HTTP request';
  const body = JSON.stringify({ error: 'invalid_request', error_description: description });
  return (
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `Connection: close\r\n\r\n${body}`
  );
}

/**
 * Ends a connection whose next request cannot be parsed (or arrived too slowly, or asked for CONNECT):
 * answers owed for complete requests go out first, in order, then `status` as the failed request's answer,
 * then the connection closes. Further errors on the same connection are ignored.
 */
export function failConnection(socket: Socket, status: string): void {
  const state = stateOf(socket);
  if (state.failed) return;
  state.failed = true;
  let answerStarted = false;
  for (const entry of state.pending) {
    if (entry.req.complete) continue;
    // The failed request itself. If its handler already began answering (an early 413 or 501), that answer
    // stands and no error answer follows it.
    if (entry.res.headersSent) answerStarted = true;
    else {
      silenced.add(entry.res);
      state.pending.delete(entry);
    }
  }
  const giveUp = setTimeout(() => socket.destroy(), OWED_WAIT_MS);
  giveUp.unref();
  socket.once('close', () => clearTimeout(giveUp));
  const finish = (): void => {
    if (state.pending.size > 0) return;
    state.onSettled = undefined;
    clearTimeout(giveUp);
    if (answerStarted || !socket.writable) {
      // Nothing more to say: the last answer was already written (and closes the connection itself, or
      // is keep-alive and the client would wait for a next one forever): close once it is flushed.
      if (socket.writable) socket.end();
      socket.once('finish', () => setTimeout(() => socket.destroy(), ERROR_LINGER_MS).unref());
      return;
    }
    socket.end(errorAnswer(status));
    socket.once('finish', () => setTimeout(() => socket.destroy(), ERROR_LINGER_MS).unref());
  };
  state.onSettled = finish;
  finish();
}

export interface FramingProblem {
  status: 400 | 501;
  description: string;
}

/**
 * Framing the parser lets through but the server must refuse before reading a body:
 * - more than one Host field line: MUST 400 (RFC 9112 §3.2; Node keeps the first and goes on);
 * - a Transfer-Encoding other than plain `chunked`. The parser has already refused one whose final coding
 *   is not chunked (400, §6.3). Chunked is the only coding served: another coding before it (`gzip,
 *   chunked`, or `identity`, no longer registered) SHOULD get 501 (§6.1); chunked twice is invalid (§7).
 */
export function framingProblem(req: IncomingMessage): FramingProblem | undefined {
  let hosts = 0;
  const raw = req.rawHeaders;
  // Only a four-letter name can be Host: the others are not lower-cased (a string each) to find out.
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') hosts += 1;
  if (hosts > 1) return { status: 400, description: 'more than one Host header field' };
  const header = req.headers['transfer-encoding'];
  if (header === undefined) return undefined;
  const codings = header
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase())
    .filter((coding) => coding !== '');
  const chunked = codings.filter((coding) => coding === 'chunked').length;
  if (chunked === 1 && codings.length === 1) return undefined;
  if (chunked !== 1 || codings[codings.length - 1] !== 'chunked') return { status: 400, description: 'invalid Transfer-Encoding' };
  return { status: 501, description: 'unsupported transfer coding: only chunked is served' };
}
