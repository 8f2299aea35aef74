/**
 * The entry's first signal handler, and its hand-over to a command's own. bin/access-conformance.js catches
 * SIGINT / SIGTERM before it imports anything; in the process that runs the command (the supervised child,
 * or the entry itself unsupervised) that catcher becomes "end at once with 130 / 143" (nothing has started
 * that needs stopping) and stays installed until the command's own handlers exist. They are added first and
 * the entry's removed after, so a listener is there at every moment: a signal libuv caught while one handler
 * was being replaced by the other is delivered, never dropped (removing the last listener drops a signal
 * that was caught but not yet delivered, and the command then ran on as if never signalled).
 */

/** Where the entry leaves its handler (a global: the entry is plain JavaScript that imports nothing first). */
const EARLY_EXIT = Symbol.for('access-conformance.early-exit');

type Holder = { [EARLY_EXIT]?: (signal: NodeJS.Signals) => void };

/** Called once the command's own SIGINT / SIGTERM handlers are installed: the entry's handler goes. */
export function claimSignals(): void {
  const holder = globalThis as Holder;
  const handler = holder[EARLY_EXIT];
  if (handler === undefined) return;
  process.off('SIGINT', handler);
  process.off('SIGTERM', handler);
  delete holder[EARLY_EXIT];
}
