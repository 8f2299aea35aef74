/**
 * The benches' minimal target: an HTTP/1.1 server on node:net that does nothing a server need not do to
 * answer. It finds each complete request in what arrives (the head up to its blank line, then a
 * Content-Length body), whether a request comes split over several reads or several come in one
 * (pipelined), and answers each with the same canned `200` (content-length, keep-alive), the answers to
 * one read written together in one write.
 *
 * Why not node:http: measured here, node:http cost ~14.5 µs of server CPU per request at saturation, about
 * what the load driver itself costs (~17 µs). On a machine whose cores the server shares with the driver,
 * that server, not the driver, was the ceiling, so a driver on two threads could not show what it can do.
 * This one costs about two thirds of the driver's CPU per request (hot-path bench, "node:net server: its
 * CPU per request"), still too much for a second driver thread on 2 cores to show anything: the hot-path
 * bench's saturated runs go against the native one too (minimal-native.c: only the system calls). It
 * serves the load driver's requests and the closed-loop
 * tools' (autocannon, wrk: the same server for every tool compared); chunked bodies are not supported (no
 * client of the benches sends one): such a connection is closed.
 */
import { createServer, type Server, type Socket } from 'node:net';

const ANSWER = Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n{}', 'latin1');
/** The answers to n requests back to back, made once per n up to CACHED (a read of 1 KiB requests holds ~50). */
const CACHED = 256;
const batches: Buffer[] = [];
function answers(n: number): Buffer {
  const make = (): Buffer => Buffer.concat(Array.from({ length: n }, () => ANSWER));
  return n > CACHED ? make() : (batches[n] ??= make());
}

const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
/** A head this long without its blank line is not a request this server serves. */
const MAX_HEAD = 64 * 1024;

/**
 * Splits a byte stream into requests. `push` takes what one read brought and returns how many requests it
 * completed (the bytes of an unfinished one are kept for the next read); -1 when the stream is not HTTP
 * this server can frame (a chunked body, a head past MAX_HEAD, a bad Content-Length).
 */
export class RequestFramer {
  private pending: Buffer | undefined;

  push(chunk: Buffer): number {
    const buf = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = undefined;
    let pos = 0;
    let count = 0;
    for (;;) {
      const end = buf.indexOf(HEAD_END, pos);
      if (end === -1) {
        if (buf.length - pos > MAX_HEAD) return -1;
        break;
      }
      const length = bodyLength(buf.toString('latin1', pos, end));
      if (length < 0) return -1;
      const next = end + HEAD_END.length + length;
      if (next > buf.length) break;
      pos = next;
      count += 1;
    }
    if (pos < buf.length) this.pending = pos === 0 ? buf : buf.subarray(pos);
    return count;
  }
}

/** The body length a head announces: its Content-Length, 0 without one, -1 for what is not framed here. */
function bodyLength(head: string): number {
  const lower = head.toLowerCase();
  if (lower.includes('\ntransfer-encoding:')) return -1;
  const at = lower.indexOf('\ncontent-length:');
  if (at === -1) return 0;
  const lineEnd = lower.indexOf('\r', at + 1);
  const value = lower.slice(at + '\ncontent-length:'.length, lineEnd === -1 ? undefined : lineEnd).trim();
  return /^\d{1,9}$/.test(value) ? Number(value) : -1;
}

/**
 * Starts the minimal server on 127.0.0.1, port 0; resolves with it and its port. (A server answering a
 * known few ms late, for comparing percentiles, is the native one's delayed mode: minimal-native.ts.)
 */
export function startMinimalServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket: Socket) => {
    socket.setNoDelay(true);
    const framer = new RequestFramer();
    socket.on('data', (chunk: Buffer) => {
      const n = framer.push(chunk);
      if (n < 0) socket.destroy();
      else if (n > 0) socket.write(answers(n));
    });
    // A client gone mid-write is its own business: nothing to report.
    socket.on('error', () => socket.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0 });
    });
  });
}
