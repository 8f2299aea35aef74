/**
 * The one helper for "this work, or stop waiting at this bound": a file write or read that may hang on a
 * FIFO or a dead file system, a Docker engine that does not answer, a log stream that does not end, a
 * client or a suite runner whose close waits on a hung target. The work's value, or what `onLate` gives
 * (or throws) once `ms` have passed first. Written by hand at each place, this race kept getting one of
 * three things wrong: the timer left running after the work ended (holding the process), the work's late
 * rejection left unhandled (Node ends the process on it), or the work never told that nobody waits any more.
 *
 * It imports nothing, so the lowest rooms (output-file.ts) may use it (tests/architecture/rooms.test.ts).
 * A bound on stopping itself takes its `ms` from timings.ts; a bound on work (a write, a read) is the
 * work's own.
 */

export interface WithinOptions {
  /**
   * Whether the bound's timer keeps the process alive while it waits (default true: a wait on work that
   * holds no handle of its own still ends at its bound, never in Node's exit 13). False for a wait that must
   * never be the reason the process is still up (closing what a stopped run left behind).
   */
  hold?: boolean;
}

/**
 * `work` is a promise, or a function given a signal aborted when the bound passes (so a loop that retries,
 * a write waiting for room in a FIFO, stops and releases what it holds). Whichever way this ends, the timer
 * is cleared and the work's own later rejection is handled.
 */
export async function within<T, L = never>(
  work: Promise<T> | ((late: AbortSignal) => Promise<T>),
  ms: number,
  onLate: () => L,
  options: WithinOptions = {},
): Promise<T | L> {
  const late = new AbortController();
  const running = typeof work === 'function' ? work(late.signal) : work;
  running.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'late'>((resolve) => {
    // Past 2^31 - 1 ms Node fires a timer at once (values.ts MAX_TIMER_MS): such a bound is "never" here.
    timer = setTimeout(() => resolve('late'), Math.min(Math.max(0, ms), 2 ** 31 - 1));
    if (options.hold === false) timer.unref();
  });
  try {
    const first = await Promise.race([running.then((value) => ({ value })), bound]);
    if (first !== 'late') return first.value;
    late.abort();
    return onLate();
  } finally {
    clearTimeout(timer);
  }
}
