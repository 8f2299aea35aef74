#!/usr/bin/env node
// The published entry: the compiled CLI. `npm ci` builds dist/ through the `prepare` script.
// `run`, `load`, `send` and `serve` run in a child of this process that the supervisor watches
// (src/stop/supervisor.ts: the deadline, the signals and the npm/npx wrapper's death hold even when the
// child's main thread cannot run); the child is this same file, started with AC_SUPERVISED_CHILD set.

// First of all, before any import: a signal while the CLI loads is kept, not the end of the process
// without a word. The stop room's signal installer (src/stop/signals.ts) removes this catcher once its own
// handlers are in place.
const EARLY = Symbol.for('access-conformance.early-exit');
const early = [];
const remember = (signal) => early.push(signal);
process.on('SIGINT', remember);
process.on('SIGTERM', remember);
globalThis[EARLY] = remember;

const { fileURLToPath } = await import('node:url');
// A leaf (it imports only the timings table): the child is forked before the rest of the supervisor loads, so
// that the second Node starts while this one loads its watch (src/stop/supervised-child.ts keeps what the
// child says meanwhile).
const { forkSupervisedChild, startSupervisedChild, supervisedCommand } = await import('../dist/src/stop/supervised-child.js');
const { stopMs } = await import('../dist/src/stop/timings.js');
const argv = process.argv.slice(2);
const command = supervisedCommand(argv);
if (command !== undefined) {
  const entry = fileURLToPath(import.meta.url);
  const forked = forkSupervisedChild(entry, argv);
  const { supervise } = await import('../dist/src/stop/supervisor.js');
  // The supervisor relays what was caught; the command's flags are its child's to read (through the option
  // grammar), and read here only if the child ends before it told them.
  const readFlags = async () => (await import('../dist/src/cli/stop-flags.js')).stopFlags(argv);
  process.exitCode = await supervise({ command, argv, entry, forked, early, readFlags });
} else {
  // The process that runs the command: until its own handlers claim the signals, a signal ends it at once
  // with 130 / 143 (nothing has started yet that needs stopping). Added before the catcher is removed, so
  // that a signal caught in between is delivered, not dropped.
  const exitAtOnce = (signal) => process.exit(signal === 'SIGINT' ? 130 : 143);
  process.on('SIGINT', exitAtOnce);
  process.on('SIGTERM', exitAtOnce);
  process.off('SIGINT', remember);
  process.off('SIGTERM', remember);
  if (early.length > 0) process.exit(early[0] === 'SIGINT' ? 130 : 143);
  globalThis[EARLY] = exitAtOnce;
  startSupervisedChild();
  const { main } = await import('../dist/src/cli/main.js');
  process.exitCode = await main(argv);
}
// Once a command returned its exit code, nothing it started may keep the process alive (a suite worker
// still waiting on a hung target, a socket a target never closes): end it after a short grace.
setTimeout(() => process.exit(), stopMs('exitAfterReturn')).unref();
