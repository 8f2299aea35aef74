/**
 * An incremental HTTP/1.x response parser for the load transport: it finds the status and the end of each
 * response (Content-Length, chunked, or until close), counts body bytes and throws nothing away it needs.
 * Headers other than those that frame the body are not kept: the load driver never reads them.
 *
 * Malformed input fails with an `HPE_*` code (as llhttp would), which the client's error mapping turns into
 * HTTP_PROTOCOL.
 */
import { ERROR_SAMPLE_KEEP_BYTES } from './error-samples.js';

export interface ParsedResponse {
  status: number;
  /** Body bytes (after de-chunking framing is removed: chunk payloads only). */
  bodyBytes: number;
  /** False when the server said `Connection: close` (or HTTP/1.0 without keep-alive), or the body ran to close. */
  keepAlive: boolean;
  /** The start of the body (at most `keepBytes`), only when `keepBodyOf` asked for this status. */
  body?: Buffer;
}

/** Asked once per response head: keep the start of this response's body? (Error samples, error-samples.ts.) */
export type KeepBodyOf = (status: number) => boolean;

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'until-close' | 'done';

/** Largest response head accepted (status line + headers). */
export const MAX_HEAD_BYTES = 64 * 1024;
const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: |\r|$)/;

export class ParseError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

export class ResponseParser {
  private state: State = 'head';
  /** Bytes of an incomplete head, chunk-size line or trailer section. */
  private pending: Buffer | undefined;
  private status = 0;
  private keepAlive = true;
  private remaining = 0;
  private bodyBytes = 0;
  /** Parts of the body kept for this response (see KeepBodyOf); undefined: the body is only counted. */
  private kept: Buffer[] | undefined;
  private keptBytes = 0;

  constructor(
    private readonly keepBodyOf?: KeepBodyOf,
    private readonly keepBytes = ERROR_SAMPLE_KEEP_BYTES,
  ) {}

  /** A response whose body runs until the connection closes is waiting for that close. */
  get awaitingClose(): boolean {
    return this.state === 'until-close';
  }

  /** True between responses: nothing of a next response has arrived. */
  get idle(): boolean {
    return this.state === 'head' && this.pending === undefined;
  }

  /**
   * Feeds bytes; returns the response once it is complete (at most one: there is no pipelining, so bytes
   * after a complete response are a protocol error).
   */
  feed(chunk: Buffer): ParsedResponse | undefined {
    let data = chunk;
    let done: ParsedResponse | undefined;
    while (data.length > 0) {
      if (done) throw new ParseError('HPE_UNEXPECTED_CONTENT', 'data after the end of the response');
      switch (this.state) {
        case 'head': {
          const buffer = this.join(data);
          const end = buffer.indexOf(HEAD_END);
          if (end < 0) {
            if (buffer.length > MAX_HEAD_BYTES) throw new ParseError('HPE_HEADER_OVERFLOW', 'response head too large');
            this.pending = buffer;
            return undefined;
          }
          this.pending = undefined;
          data = buffer.subarray(end + 4);
          const informational = this.head(buffer.toString('latin1', 0, end));
          if (informational) continue;
          if ((this.state as State) === 'done') done = this.finish();
          break;
        }
        case 'length': {
          data = this.countBody(data);
          if (this.remaining === 0) done = this.finish();
          break;
        }
        case 'chunk-size': {
          const buffer = this.join(data);
          const eol = buffer.indexOf(CRLF);
          if (eol < 0) {
            if (buffer.length > 1024) throw new ParseError('HPE_INVALID_CHUNK_SIZE', 'chunk-size line too long');
            this.pending = buffer;
            return undefined;
          }
          this.pending = undefined;
          const line = buffer.toString('latin1', 0, eol);
          const hex = line.split(';', 1)[0].trim();
          if (!/^[0-9a-fA-F]+$/.test(hex)) throw new ParseError('HPE_INVALID_CHUNK_SIZE', 'invalid chunk size');
          const size = parseInt(hex, 16);
          data = buffer.subarray(eol + 2);
          if (size === 0) this.state = 'trailers';
          else {
            this.remaining = size;
            this.state = 'chunk-data';
          }
          break;
        }
        case 'chunk-data': {
          data = this.countBody(data);
          if (this.remaining === 0) {
            this.remaining = 2;
            this.state = 'chunk-end';
          }
          break;
        }
        case 'chunk-end': {
          // The CRLF after a chunk's data, possibly split across reads.
          const n = Math.min(this.remaining, data.length);
          for (let i = 0; i < n; i += 1) {
            const expected = this.remaining === 2 ? 0x0d : 0x0a;
            if (data[i] !== expected) throw new ParseError('HPE_STRICT', 'missing CRLF after chunk data');
            this.remaining -= 1;
          }
          data = data.subarray(n);
          if (this.remaining === 0) this.state = 'chunk-size';
          break;
        }
        case 'trailers': {
          const buffer = this.join(data);
          // No trailers: the empty line comes at once. With trailers: they end with an empty line.
          const end = buffer.subarray(0, 2).equals(CRLF) ? 0 : buffer.indexOf(HEAD_END);
          if (end < 0) {
            if (buffer.length > MAX_HEAD_BYTES) throw new ParseError('HPE_HEADER_OVERFLOW', 'trailers too large');
            this.pending = buffer;
            return undefined;
          }
          this.pending = undefined;
          data = buffer.subarray(end === 0 ? 2 : end + 4);
          done = this.finish();
          break;
        }
        case 'until-close':
          this.keep(data);
          this.bodyBytes += data.length;
          data = data.subarray(data.length);
          break;
        case 'done':
          throw new ParseError('HPE_UNEXPECTED_CONTENT', 'data after the end of the response');
      }
    }
    return done;
  }

  /** The connection ended: completes a body that runs until close, or reports a truncated response. */
  end(): ParsedResponse | undefined {
    if (this.state === 'until-close') return this.finish();
    if (this.idle) return undefined;
    throw new ParseError('HPE_INVALID_EOF_STATE', 'the connection closed in the middle of a response');
  }

  /** Parses a head; returns true for a 1xx informational response (skipped, the real one follows). */
  private head(text: string): boolean {
    const match = STATUS_LINE.exec(text);
    if (!match) throw new ParseError('HPE_INVALID_CONSTANT', 'not an HTTP/1.x status line');
    const minor = match[1];
    const status = Number(match[2]);
    if (status >= 100 && status < 200 && status !== 101) return true;
    let contentLength: number | undefined;
    let chunked = false;
    let connection = '';
    let start = text.indexOf('\r\n');
    while (start >= 0) {
      const next = text.indexOf('\r\n', start + 2);
      // Only three headers frame the body; skip the others (Date, Content-Type, …) without building strings.
      const first = text.charCodeAt(start + 2) | 0x20;
      if (first !== 0x63 /* c */ && first !== 0x74 /* t */) {
        start = next;
        continue;
      }
      const line = text.slice(start + 2, next < 0 ? text.length : next);
      start = next;
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') {
        if (!/^\d+$/.test(value)) throw new ParseError('HPE_INVALID_CONTENT_LENGTH', 'invalid Content-Length');
        const n = Number(value);
        if (contentLength !== undefined && contentLength !== n) throw new ParseError('HPE_UNEXPECTED_CONTENT_LENGTH', 'conflicting Content-Length');
        contentLength = n;
      } else if (name === 'transfer-encoding') {
        chunked = value.toLowerCase().split(',').map((v) => v.trim()).pop() === 'chunked';
      } else if (name === 'connection') {
        connection = value.toLowerCase();
      }
    }
    this.status = status;
    this.bodyBytes = 0;
    this.kept = this.keepBodyOf?.(status) ? [] : undefined;
    this.keptBytes = 0;
    this.keepAlive = minor === '1' ? !connection.includes('close') : connection.includes('keep-alive');
    if (status === 204 || status === 304 || status === 101) this.state = 'done';
    else if (chunked) this.state = 'chunk-size';
    else if (contentLength !== undefined) {
      this.remaining = contentLength;
      this.state = contentLength === 0 ? 'done' : 'length';
    } else {
      this.keepAlive = false;
      this.state = 'until-close';
    }
    return false;
  }

  /** Counts (and drops) the body bytes still expected from `data`; returns what follows them. */
  private countBody(data: Buffer): Buffer {
    const n = Math.min(this.remaining, data.length);
    if (this.kept) this.keep(data.subarray(0, n));
    this.remaining -= n;
    this.bodyBytes += n;
    return data.subarray(n);
  }

  /** Copies (not views: the socket's chunk must not be retained) up to keepBytes of a kept body. */
  private keep(part: Buffer): void {
    if (!this.kept || this.keptBytes >= this.keepBytes || part.length === 0) return;
    const take = Buffer.from(part.subarray(0, this.keepBytes - this.keptBytes));
    this.kept.push(take);
    this.keptBytes += take.length;
  }

  private finish(): ParsedResponse {
    const response: ParsedResponse = { status: this.status, bodyBytes: this.bodyBytes, keepAlive: this.keepAlive };
    if (this.kept) response.body = Buffer.concat(this.kept);
    this.kept = undefined;
    this.state = 'head';
    this.pending = undefined;
    this.remaining = 0;
    return response;
  }

  private join(data: Buffer): Buffer {
    return this.pending ? Buffer.concat([this.pending, data]) : data;
  }
}
