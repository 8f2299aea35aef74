/**
 * The request log behind the inspector page: the last {@link REQUEST_LOG_SIZE} exchanges, each kept by
 * reference with a sequence number. Recording is one array store (no copy, no redaction: the page redacts
 * what it shows, when it asks); the oldest is overwritten, so the log never holds more than its size.
 */
import type { ExchangeObserver, SandboxExchange } from './exchange.js';

/** How many requests the page lists (issue 45: the last 200). */
export const REQUEST_LOG_SIZE = 200;

export interface LoggedExchange {
  /** 1 for the first request the log saw, counting up: the page asks for what came after the last it has. */
  readonly seq: number;
  readonly exchange: SandboxExchange;
}

export interface RequestLog {
  readonly observer: ExchangeObserver;
  /** Exchanges numbered above `afterSeq`, newest first (at most the log's size). */
  since(afterSeq: number): LoggedExchange[];
  /** The number of the newest exchange (0 before the first). */
  readonly lastSeq: number;
}

export function createRequestLog(size = REQUEST_LOG_SIZE): RequestLog {
  const ring: Array<SandboxExchange | undefined> = new Array<SandboxExchange | undefined>(size);
  let count = 0;
  return {
    observer: (exchange) => {
      ring[count % size] = exchange;
      count += 1;
    },
    since(afterSeq) {
      const out: LoggedExchange[] = [];
      for (let seq = count; seq > Math.max(afterSeq, count - size); seq -= 1) {
        out.push({ seq, exchange: ring[(seq - 1) % size] as SandboxExchange });
      }
      return out;
    },
    get lastSeq() {
      return count;
    },
  };
}
