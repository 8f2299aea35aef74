/**
 * The one signal installer: SIGINT and SIGTERM, and the death of the npm/npx wrapper (wrapper.ts), which
 * stops the command as SIGTERM would. The wrapper is watched by the outermost process of ours only: the
 * supervisor, or the command itself when unsupervised (a supervised child's parent is the supervisor, which
 * stays; the child sees it go through its IPC channel). Used by the supervisor (which relays them), the run
 * scope (which stops the command) and `load prepare --serve-jwks` (which stops serving).
 *
 * The hand-over from the entry: bin/access-conformance.js catches SIGINT / SIGTERM before it imports
 * anything; in the process that runs the command that catcher is "end at once with 130 / 143" (nothing has
 * started that needs stopping) and stays until the command's own handlers exist. Ours are added first and
 * the entry's removed after, so a listener is there at every moment: removing the last listener drops a
 * signal libuv caught but has not delivered yet, and the command then ran on as if never signalled.
 */
import { debugLine } from '../debug.js';
import type { StopSignal } from '../errors.js';
import { stopMs } from './timings.js';
import { supervisedSince } from './supervised-child.js';
import { wrapperWatch } from './wrapper.js';

/** Where the entry leaves its "end at once" handler (a global: the entry imports nothing first). */
const EARLY_EXIT = Symbol.for('access-conformance.early-exit');

type Holder = { [EARLY_EXIT]?: (signal: NodeJS.Signals) => void };


/**
 * Installs the handlers; `received` is told each signal (its count: 1 for the first), the wrapper's death
 * as SIGTERM. Returns the removal.
 */
export function onStopSignals(received: (signal: StopSignal, count: number) => void): () => void {
  let count = 0;
  const handler = (signal: NodeJS.Signals): void => {
    count += 1;
    received(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM', count);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  claimEarlySignals();
  const gone = supervisedSince() === undefined ? wrapperWatch() : undefined;
  const watch =
    gone === undefined
      ? undefined
      : setInterval(() => {
          if (!gone()) return;
          clearInterval(watch);
          debugLine('stop', 'the npm/npx wrapper is gone: stopping as on SIGTERM');
          handler('SIGTERM');
        }, stopMs('watch'));
  watch?.unref();
  return () => {
    if (watch) clearInterval(watch);
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/** Our handlers are in place: the entry's "end at once" handler goes now, not before. */
function claimEarlySignals(): void {
  const holder = globalThis as Holder;
  const early = holder[EARLY_EXIT];
  if (early === undefined) return;
  process.off('SIGINT', early);
  process.off('SIGTERM', early);
  delete holder[EARLY_EXIT];
}
