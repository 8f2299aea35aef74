/**
 * The load sender's wire format and its queue, apart from the connection handling in load-transport.ts:
 * what one request looks like on the socket, which requests may not be written, and the FIFO of requests
 * waiting for a connection.
 */
import type { LoadRequest } from './load-transport-api.js';

const UNSAFE = /[\r\n]/;

/** Requests waiting for a connection, first in first out; shifting is O(1) and the array is compacted now and then. */
export class FifoQueue<T> {
  private jobs: T[] = [];
  private head = 0;

  get size(): number {
    return this.jobs.length - this.head;
  }

  push(job: T): void {
    this.jobs.push(job);
  }

  shift(): T | undefined {
    if (this.head >= this.jobs.length) return undefined;
    const job = this.jobs[this.head]!;
    this.jobs[this.head] = undefined as unknown as T;
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.jobs.length) {
      this.jobs = this.jobs.slice(this.head);
      this.head = 0;
    }
    return job;
  }

  /** Empties the queue, returning what waited. */
  drain(): T[] {
    const waiting = this.jobs.slice(this.head);
    this.jobs = [];
    this.head = 0;
    return waiting;
  }
}

/** A request line, header or path with CR or LF would split the request: refused before it is written. */
export function unsafeRequest(req: LoadRequest): boolean {
  if (UNSAFE.test(req.path)) return true;
  for (const name in req.headers) if (UNSAFE.test(name) || UNSAFE.test(req.headers[name]!)) return true;
  return false;
}

/**
 * The request as written: head and body in one buffer, one write (cheaper than corking two writes into a
 * writev, measured on the hot path); a request without a body is its head alone, as latin1 text.
 */
export function encodeRequest(req: LoadRequest, hostHeader: string): string | Buffer {
  let head = `${req.method} ${req.path} HTTP/1.1\r\nhost: ${hostHeader}\r\n`;
  for (const name in req.headers) head += `${name}: ${req.headers[name]}\r\n`;
  if (req.body) head += `content-length: ${req.body.length}\r\n`;
  head += '\r\n';
  if (!req.body) return head;
  const size = Buffer.byteLength(head, 'latin1');
  const out = Buffer.allocUnsafe(size + req.body.length);
  out.write(head, 0, 'latin1');
  req.body.copy(out, size);
  return out;
}
