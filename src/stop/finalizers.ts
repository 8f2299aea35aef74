/**
 * The process's finalizers: what must be undone on every way out of a command (stopping the embedded
 * target, closing a state folder, removing a started container), registered by whoever started it and run
 * by the run scope on its close or on a forced stop (scope.ts), last registered first, each bounded
 * (`cleanup`), once. A finalizer may leave a synchronous fallback run at process exit if it has not finished
 * by then (a forced exit does not wait for it): the one `exit` listener of the harness is here.
 *
 * One list for the process, not one per scope or per room: before, the containers kept their own list
 * with their own SIGINT / SIGTERM / exit handlers and a 15 s budget of their own, beside the scope's.
 */
import { debugLine } from '../debug.js';
import type { StopSignal } from '../errors.js';
import { formatDuration } from '../values.js';
import { stopMs } from './timings.js';
import { within } from './within.js';

/** The signal that stopped the command, when one did: a finalizer may say what it undoes and why. */
export type FinalizerRun = (stoppedBy?: StopSignal) => Promise<void>;

interface Finalizer {
  name: string;
  run: FinalizerRun;
  atExit?: () => void;
}

const finalizers: Finalizer[] = [];
/** Fallbacks still armed: a finalizer's stays until its run has finished. */
const fallbacks = new Set<Finalizer>();
let exitHooked = false;

function onExit(): void {
  const pending = [...fallbacks].reverse();
  fallbacks.clear();
  for (const finalizer of pending) {
    try {
      finalizer.atExit!();
    } catch {
      // Nothing more can be done while the process exits.
    }
  }
}

/**
 * Registers a finalizer (and its synchronous fallback at exit, if any). Returns its removal, for work that
 * undid itself on its normal path (the fallback goes with it).
 */
export function registerFinalizer(name: string, run: FinalizerRun, atExit?: () => void): () => void {
  const finalizer: Finalizer = { name, run, ...(atExit ? { atExit } : {}) };
  finalizers.push(finalizer);
  if (atExit) {
    fallbacks.add(finalizer);
    if (!exitHooked) {
      exitHooked = true;
      process.on('exit', onExit);
    }
  }
  return () => {
    const index = finalizers.indexOf(finalizer);
    if (index !== -1) finalizers.splice(index, 1);
    fallbacks.delete(finalizer);
  };
}

let running: Promise<void> | undefined;

/**
 * Runs every registered finalizer once, last registered first (what started last depends on what started
 * first), each within `cleanup`: one that hangs or fails is named on stderr and the next runs regardless.
 * Called again while running, it returns the same run.
 */
export function runFinalizers(stoppedBy?: StopSignal): Promise<void> {
  running ??= (async () => {
    for (const finalizer of finalizers.splice(0).reverse()) {
      debugLine('scope', `cleanup: ${finalizer.name}`);
      try {
        await within(finalizer.run(stoppedBy), stopMs('cleanup'), () => {
          process.stderr.write(`cleanup "${finalizer.name}" did not finish within ${formatDuration(stopMs('cleanup'))}; going on\n`);
        });
        fallbacks.delete(finalizer);
      } catch (error) {
        process.stderr.write(`cleanup "${finalizer.name}" failed: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  })().finally(() => {
    running = undefined;
  });
  return running;
}
