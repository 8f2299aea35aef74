/**
 * One TCP conversation with a server on 127.0.0.1, for requests fetch refuses to send (malformed,
 * truncated, slow, pipelined): writes the first bytes, then the rest `gapMs` apart, and collects what the
 * server sends until it closes, `done` says enough, or the timeout. tests/reference/support/raw.ts and
 * tests/hostile/serve-support.ts read the bytes each their own way.
 */
import { connect } from 'node:net';

export interface TalkOptions {
  /** Written after the first bytes, `gapMs` apart. */
  then?: ReadonlyArray<Buffer | string>;
  gapMs?: number;
  /** Half-close our side after the last write. */
  end?: boolean;
  /** Give up waiting after this long (then the socket is destroyed). */
  timeoutMs: number;
  /** Stop (and destroy the socket) once this holds for what arrived so far. */
  done?: (received: Buffer) => boolean;
}

export interface Talked {
  received: Buffer;
  /** The server closed the connection (as opposed to our timeout or `done`). */
  closedByServer: boolean;
  /** Milliseconds from the call to the end. */
  elapsedMs: number;
  error?: string;
}

export function talk(port: number, first: Buffer | string, options: TalkOptions): Promise<Talked> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const received: Buffer[] = [];
    const started = Date.now();
    let settled = false;
    const finish = (closedByServer: boolean, error?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ received: Buffer.concat(received), closedByServer, elapsedMs: Date.now() - started, error });
    };
    const timer = setTimeout(() => finish(false), options.timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (options.done?.(Buffer.concat(received))) finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', (error: NodeJS.ErrnoException) => finish(true, error.code ?? error.message));
    socket.on('connect', async () => {
      try {
        socket.write(first);
        for (const chunk of options.then ?? []) {
          if (options.gapMs) await new Promise((wake) => setTimeout(wake, options.gapMs));
          if (settled || socket.destroyed) return;
          socket.write(chunk);
        }
        if (options.end && !socket.destroyed) socket.end();
      } catch {
        // The server closed first; the result says so.
      }
    });
  });
}
