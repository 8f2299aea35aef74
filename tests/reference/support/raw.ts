/** Raw HTTP/1.1 over a TCP socket, for requests fetch refuses to send (malformed, truncated, slow). */
import { talk } from '../../support/socket-talk.js';

export interface RawResult {
  /** Everything the server sent before closing (or before the timeout). */
  text: string;
  /** Status of the first response, or undefined when none arrived. */
  status?: number;
  /** The server closed the connection (as opposed to our timeout). */
  closedByServer: boolean;
  error?: string;
}

export interface RawOptions {
  /** Sent one after another, `gapMs` apart. */
  chunks?: Array<Buffer | string>;
  gapMs?: number;
  /** Half-close our side after the last chunk. */
  endAfter?: boolean;
  /** Give up waiting after this long (then the socket is destroyed). */
  timeoutMs?: number;
  /** Resolve as soon as a complete status line arrived (do not wait for close). */
  untilStatus?: boolean;
}

export async function rawRequest(port: number, first: Buffer | string, options: RawOptions = {}): Promise<RawResult> {
  const talked = await talk(port, first, {
    ...(options.chunks ? { then: options.chunks } : {}),
    ...(options.gapMs ? { gapMs: options.gapMs } : {}),
    end: options.endAfter === true,
    timeoutMs: options.timeoutMs ?? 3000,
    ...(options.untilStatus ? { done: (received: Buffer) => /^HTTP\/1\.[01] \d{3}[^\r\n]*\r\n/.test(received.toString('latin1')) } : {}),
  });
  const text = talked.received.toString('latin1');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  return { text, status: match ? Number(match[1]) : undefined, closedByServer: talked.closedByServer, ...(talked.error ? { error: talked.error } : {}) };
}
