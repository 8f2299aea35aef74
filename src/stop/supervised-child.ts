/**
 * The supervisor's first step and the child's side, in a module that imports nothing of the project but the
 * timings table (a leaf): the entry (bin/access-conformance.js) forks the command's child with it before it
 * loads the rest of the supervisor (supervisor.ts), so that the child's start (a second Node and its CLI)
 * runs beside the parent's loading instead of after it; and the child beats its heartbeat without loading
 * the supervisor at all.
 *
 * What arrives from the child before supervise() listens (its messages, its end) is kept here and handed
 * over, so nothing the child says or does in between is lost.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { Phase } from './phase.js';
import { stopMs } from './timings.js';

/** What a supervised command tells its parent. */
export type SupervisorMessage =
  | { type: 'beat' }
  | { type: 'phase'; phase: Phase }
  /** Its flags as the option grammar parsed them: the deadline, and where report.json goes (run, load). */
  | { type: 'bounds'; maxDurationMs?: number; reportDir?: string }
  /** The command's own reports are written (or there are none to write): the parent writes none. */
  | { type: 'reported' };

/** Set in a supervised child: its parent's start (ms), from which the child counts its deadline. */
export const CHILD_ENV = 'AC_SUPERVISED_CHILD';

/** When this process is a supervised child: its parent's start time. */
export function supervisedSince(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const value = Number(env[CHILD_ENV]);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/** The commands that run under a supervisor; the others (list, diff, --help) are short and run in-process. */
const SUPERVISED = new Set(['run', 'load', 'send', 'serve']);

/** The command to supervise, or undefined to run in-process (a child already, --help, list, diff). */
export function supervisedCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (supervisedSince(env) !== undefined || env.AC_NO_SUPERVISOR === '1') return undefined;
  if (argv.some((arg) => arg === '--help' || arg === '-h' || arg === '--version')) return undefined;
  return argv[0] !== undefined && SUPERVISED.has(argv[0]) ? argv[0] : undefined;
}

/**
 * V8 flags a command's child runs with, on top of this process's own. `load`: no memory reducer. V8 runs
 * full garbage collections to shrink a heap that looks idle (little allocation for a while), which a
 * sending thread at a modest rate does; each paused that thread 5 to 15 ms mid-run (measured at 1,000/s on
 * two workers: the pauses, 8 s in, were the only rows whose p99 left 6-7 ms, at 10 to 30 ms). A load run
 * is short and its heap small; it has no use for shrinking it. Without the supervisor (AC_NO_SUPERVISOR=1)
 * the command runs in the entry's process, with the flags node was given.
 */
export const COMMAND_V8_FLAGS: Readonly<Record<string, readonly string[]>> = { load: ['--no-memory-reducer'] };

/** How a child ended: 'exit' and 'close' (the IPC channel drained) come apart. */
export interface ChildEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A forked child whose messages and end are kept until its supervisor listens. */
export interface ForkedChild {
  child: ChildProcess;
  /** When the parent forked it (ms since the epoch): the child counts its deadline from here. */
  startedAt: number;
  /** Hands over the kept messages, in order, then every later one; and the end, if it came already. */
  listen(handlers: { message(message: SupervisorMessage): void; exit(end: ChildEnd): void; close(end: ChildEnd): void }): void;
}

/** Forks `entry` as the supervised child of this process. */
export function forkSupervisedChild(entry: string, argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ForkedChild {
  const startedAt = Date.now();
  const child = fork(entry, [...argv], {
    execArgv: [...process.execArgv, ...(COMMAND_V8_FLAGS[argv[0] ?? ''] ?? [])],
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...env, [CHILD_ENV]: String(startedAt) },
    // Its own process group: a terminal's Ctrl-C reaches the parent only, which relays it once.
    detached: true,
  });
  const kept: SupervisorMessage[] = [];
  let exited: ChildEnd | undefined;
  let closed: ChildEnd | undefined;
  let handlers: Parameters<ForkedChild['listen']>[0] | undefined;
  child.on('message', (message: SupervisorMessage) => (handlers ? handlers.message(message) : kept.push(message)));
  child.once('exit', (code, signal) => (handlers ? handlers.exit({ code, signal }) : (exited = { code, signal })));
  child.once('close', (code, signal) => (handlers ? handlers.close({ code, signal }) : (closed = { code, signal })));
  return {
    child,
    startedAt,
    listen(given) {
      handlers = given;
      for (const message of kept.splice(0)) given.message(message);
      if (exited) given.exit(exited);
      if (closed) given.close(closed);
    },
  };
}

/** Sends a message to the supervising parent, when there is one; never throws. */
export function tellSupervisor(message: SupervisorMessage): void {
  if (!process.send || !process.connected) return;
  try {
    process.send(message);
  } catch {
    // The parent is gone; the disconnect handler of startSupervisedChild() ends this process.
  }
}

/**
 * The child's side, first thing in the process: the heartbeat, and an end when the parent is gone (its IPC
 * channel closes: treated as SIGTERM, so the command still writes its reports). No-op when not supervised.
 */
export function startSupervisedChild(): void {
  if (supervisedSince() === undefined || !process.send) return;
  const beat = setInterval(() => tellSupervisor({ type: 'beat' }), stopMs('heartbeat'));
  beat.unref();
  process.once('disconnect', () => {
    clearInterval(beat);
    process.kill(process.pid, 'SIGTERM');
  });
  // The channel must not keep a finished command alive.
  process.channel?.unref();
}
