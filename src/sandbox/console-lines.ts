/**
 * `serve`'s console: one line per refused request (time, method, path, listener, status, the diagnosis),
 * every request with `--verbose`, none with `--quiet`. Under a flood it prints counts, not lines: past
 * `linesPerSecond` lines in a second the rest of that second is counted and summed up in one line, so a
 * load test against the sandbox is not slowed by its own log. Everything a target sent is hostile: each
 * field is one short line with its control characters made visible (src/escape.ts), and the query, where
 * a client may have put a token, is never shown.
 */
import { shortText } from '../escape.js';
import type { ExchangeObserver, SandboxExchange } from './exchange.js';

export type ConsoleMode = 'refused' | 'all' | 'none';

export interface ConsoleLinesOptions {
  mode: ConsoleMode;
  write: (text: string) => void;
  /** Lines a second before the rest of the second is only counted; default 20. */
  linesPerSecond?: number;
  /** Epoch ms; default Date.now. */
  clock?: () => number;
}

export interface ConsoleLines {
  readonly observe: ExchangeObserver;
  /** Prints the counts of a second still open (at stop). */
  flush(): void;
}

const DEFAULT_LINES_PER_SECOND = 20;

/** One request as a console line. */
export function consoleLine(exchange: SandboxExchange): string {
  const q = exchange.target.indexOf('?');
  const path = shortText(q < 0 ? exchange.target : `${exchange.target.slice(0, q)}?…`, 200);
  const listener = exchange.listener === undefined ? '' : ` listener ${shortText(exchange.listener, 80)}`;
  const diagnosis = exchange.diagnosis === undefined ? '' : ` ${shortText(exchange.diagnosis.mistake, 80)}: ${shortText(exchange.diagnosis.sentence, 600)}`;
  return `${new Date(exchange.at).toISOString()} ${shortText(exchange.method, 16)} ${path}${listener} ${exchange.status}${diagnosis}\n`;
}

export function consoleLines(options: ConsoleLinesOptions): ConsoleLines {
  const limit = options.linesPerSecond ?? DEFAULT_LINES_PER_SECOND;
  const clock = options.clock ?? Date.now;
  let second = -1;
  let printed = 0;
  let counted = 0;
  const codes = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;

  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (counted === 0) return;
    const refused = [...codes.values()].reduce((sum, n) => sum + n, 0);
    const byCode = [...codes.entries()].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${shortText(code, 80)} ${n}`).join(', ');
    options.write(`${new Date(second * 1000).toISOString()} … ${counted} more request${counted === 1 ? '' : 's'} in that second, not shown one by one (${refused} refused${byCode === '' ? '' : `: ${byCode}`})\n`);
    counted = 0;
    codes.clear();
  };

  const observe: ExchangeObserver = (exchange) => {
    if (options.mode === 'none' || (options.mode === 'refused' && exchange.status < 400)) return;
    const now = Math.floor(clock() / 1000);
    if (now !== second) {
      flush();
      second = now;
      printed = 0;
    }
    if (printed < limit) {
      printed += 1;
      options.write(consoleLine(exchange));
      return;
    }
    counted += 1;
    if (exchange.status >= 400) {
      const code = exchange.diagnosis?.mistake ?? String(exchange.status);
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    // The counts of a flood that stops are printed when its second is over, not at the next request.
    timer ??= setTimeout(flush, 1000 - (clock() % 1000) + 5).unref();
  };
  return { observe, flush };
}
