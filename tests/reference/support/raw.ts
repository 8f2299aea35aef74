/** Raw HTTP/1.1 over a TCP socket, for requests fetch refuses to send (malformed, truncated, slow). */
import { connect } from 'node:net';

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

export function rawRequest(port: number, first: Buffer | string, options: RawOptions = {}): Promise<RawResult> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let settled = false;
    const finish = (closedByServer: boolean, error?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(received).toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ text, status: match ? Number(match[1]) : undefined, closedByServer, error });
    };
    const timer = setTimeout(() => finish(false), options.timeoutMs ?? 3000);
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (options.untilStatus && /^HTTP\/1\.[01] \d{3}[^\r\n]*\r\n/.test(Buffer.concat(received).toString('latin1'))) finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', (error: NodeJS.ErrnoException) => finish(true, error.code ?? error.message));
    socket.on('connect', async () => {
      try {
        socket.write(first);
        for (const chunk of options.chunks ?? []) {
          if (options.gapMs) await new Promise((r) => setTimeout(r, options.gapMs));
          if (settled || socket.destroyed) return;
          socket.write(chunk);
        }
        if (options.endAfter && !socket.destroyed) socket.end();
      } catch {
        // the server closed first; the result says so
      }
    });
  });
}
