/**
 * The supervisor: what only another process can do. `run`, `load`, `send` and `serve` run in a child that
 * this parent watches, because a native deadlock (Node 20's key export) freezes the child's event loop and
 * every timer and signal handler with it; and because the npm/npx wrapper's death is seen from here.
 *
 * - The child (the same entry, AC_SUPERVISED_CHILD=<the parent's start, ms>) beats a heartbeat, tells its
 *   bounds once its flags are parsed (the deadline, the folder of its report: read by the option grammar,
 *   never from argv here), each phase, and when its reports are written (scope.ts).
 * - SIGINT / SIGTERM, and the wrapper's death as SIGTERM, are relayed once to the child (it is in its own
 *   process group, so a terminal's Ctrl-C reaches it once, through here). A child that handles them writes
 *   its reports and ends with 130 / 143; a frozen one (heartbeat older than `frozen`) or one slower than
 *   `stopGrace` is killed.
 * - At the child's deadline a frozen child is killed at once, a live one gets `stopGrace` to end itself (its
 *   scope stops it at the same deadline). A heartbeat silent for `stall` is killed, deadline or not.
 *
 * After killing the child, or when a child it relayed a signal to ended without its reports (the signal came
 * while the child's entry still loaded), the parent writes `<out>/report.json` (stopped-report.ts) for `run`
 * and `load`, naming the phase, and ends with 2 (deadline, stuck) or 130 / 143 (a signal). When the child
 * never told its bounds, `readFlags` (the CLI's option grammar, loaded only then) says where.
 * Timings: timings.ts. DEBUG=access-conformance shows the decisions.
 *
 * The fork itself, the child's heartbeat and the messages are supervised-child.ts's, a leaf: the entry forks
 * before it loads this module, and a child never loads it. The short report.json loads only to be written.
 */
import { constants } from 'node:os';
import { debugLine } from '../debug.js';
import type { StopSignal } from '../errors.js';
import { formatDuration } from '../values.js';
import type { Phase } from './phase.js';
import { signalReason, stopExitCode, type StopReason } from './reason.js';
import { onStopSignals } from './signals.js';
import { forkSupervisedChild, type ChildEnd, type ForkedChild, type SupervisorMessage } from './supervised-child.js';
import { stopMs } from './timings.js';

export interface StopBounds {
  maxDurationMs?: number;
  reportDir?: string;
}

export interface SuperviseOptions {
  command: string;
  argv: readonly string[];
  /** The entry to fork (bin/access-conformance.js). */
  entry: string;
  /** The child, when the entry forked it already (supervised-child.ts); else supervise() forks `entry`. */
  forked?: ForkedChild;
  env?: NodeJS.ProcessEnv;
  /** Signals the entry caught before this module loaded: relayed as soon as the child exists. */
  early?: readonly NodeJS.Signals[];
  /** The command's bounds read by the CLI's option grammar, for a child that died before it told them. */
  readFlags?: () => Promise<StopBounds>;
}

/** Runs the command in a supervised child; resolves with the exit code the process must end with. */
export function supervise(options: SuperviseOptions): Promise<number> {
  const { command, env = process.env } = options;
  const what = `the ${command}`;
  const stallMs = Number(env.AC_SUPERVISOR_STALL_MS) > 0 ? Number(env.AC_SUPERVISOR_STALL_MS) : stopMs('stall');
  const forked = options.forked ?? forkSupervisedChild(options.entry, options.argv, env);
  const { child, startedAt } = forked;
  debugLine('supervisor', `${command} in child ${child.pid}`);
  let phase: Phase = 'start';
  let bounds: StopBounds | undefined;
  let reported = false;
  let lastBeat = Date.now();
  let stop: StopReason | undefined;
  let signalAt: number | undefined;
  let killed = false;

  const onMessage = (message: SupervisorMessage): void => {
    lastBeat = Date.now();
    if (message.type === 'phase') phase = message.phase;
    else if (message.type === 'reported') reported = true;
    else if (message.type === 'bounds') bounds = { ...message };
  };
  const kill = (why: StopReason): void => {
    if (killed) return;
    killed = true;
    stop ??= why;
    debugLine('supervisor', `killing child ${child.pid} in phase ${phase}: ${why.message}`);
    child.kill('SIGKILL');
  };
  const watchdog = setInterval(() => {
    const now = Date.now();
    const silent = now - lastBeat;
    const frozen = silent > stopMs('frozen');
    const late = (since: number): boolean => frozen || now - since > stopMs('stopGrace');
    const deadline = bounds?.maxDurationMs;
    if (silent > stallMs) {
      kill({ code: 'DEADLINE', message: `${what} stopped responding: its main thread did not run for ${formatDuration(silent)} in phase "${phase}"` });
    } else if (deadline !== undefined && now - startedAt > deadline && late(startedAt + deadline)) {
      kill({ code: 'DEADLINE', message: `${what} reached its deadline of ${formatDuration(deadline)} (--max-duration) in phase "${phase}" and ${frozen ? 'its main thread was not running' : 'did not stop'}` });
    } else if (signalAt !== undefined && stop?.signal && late(signalAt)) {
      kill({ ...stop, message: `${stop.message}; it ${frozen ? 'was not running' : 'did not stop'} in phase "${phase}"` });
    }
  }, stopMs('watch'));

  const relay = (signal: StopSignal): void => {
    if (signalAt === undefined) {
      signalAt = Date.now();
      stop ??= signalReason(signal, what);
      debugLine('supervisor', `${signal}: relayed to child ${child.pid} in phase ${phase}`);
    } else {
      // A second signal: the child's handlers end it at once; a child that does not is killed shortly.
      setTimeout(() => kill(stop ?? signalReason(signal, what)), stopMs('secondSignal')).unref();
    }
    child.kill(signal);
  };
  const removeSignals = onStopSignals(relay);
  // A signal while the CLI loaded: relayed now that the child exists (it ends in phase "start").
  for (const signal of (options.early ?? []).slice(0, 2)) relay(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM');

  return new Promise<number>((resolveExit) => {
    // 'close', not 'exit': it comes once the IPC channel is drained, so a "reported" the child sent just
    // before it ended has been read. A grandchild that inherited the channel could hold it open after the
    // child is gone: then 'exit' decides, `closeAfterExit` later. Not unref'd: the exit code is decided here.
    let settled = false;
    let closeWait: NodeJS.Timeout | undefined;
    forked.listen({
      message: onMessage,
      exit: (end: ChildEnd) => {
        closeWait = setTimeout(() => settle(end.code, end.signal), stopMs('closeAfterExit'));
      },
      close: (end: ChildEnd) => settle(end.code, end.signal),
    });
    function settle(code: number | null, killedBy: NodeJS.Signals | null): void {
      if (settled) return;
      settled = true;
      clearTimeout(closeWait);
      clearInterval(watchdog);
      removeSignals();
      // Ended by a relayed signal before its handlers existed: an interrupt all the same.
      if (!stop && (killedBy === 'SIGINT' || killedBy === 'SIGTERM')) stop = signalReason(killedBy, what);
      if (!killed && code !== null) {
        debugLine('supervisor', `child ended with ${code} in phase ${phase}`);
        // A child that ended on a relayed signal without its reports (it caught the signal while its entry
        // still loaded, before any handler of the command existed) still leaves a report that says so.
        if (stop?.signal && code === stopExitCode(stop)) void fallbackReport(stop, code).finally(() => resolveExit(code));
        else resolveExit(code);
        return;
      }
      if (!stop) {
        // A crash (SIGSEGV, SIGABRT, the kernel's OOM killer): a harness error.
        process.stderr.write(`error[INTERNAL]: ${what}'s process ended by ${killedBy ?? 'an unknown cause'} in phase "${phase}"\n`);
        resolveExit(killedBy ? Math.min(255, 128 + (constants.signals[killedBy] ?? 0)) : 2);
        return;
      }
      const exitCode = stopExitCode(stop);
      process.stderr.write(`error[${stop.code}]: ${stop.message}\n`);
      void fallbackReport(stop, exitCode).finally(() => resolveExit(exitCode));
    }
  });

  async function fallbackReport(why: StopReason, exitCode: number): Promise<void> {
    if (reported) return;
    const dir = bounds ? bounds.reportDir : await options.readFlags?.().then((flags) => flags.reportDir, () => undefined);
    if (dir === undefined) return;
    try {
      const { writeStoppedReportUnlessNewer } = await import('./stopped-report.js');
    const path = await writeStoppedReportUnlessNewer(dir, { command, ...why, phase, exitCode, startedAt, writtenBy: 'supervisor' });
      if (path !== undefined) process.stderr.write(`  report: ${path} (phase "${phase}")\n`);
    } catch (error) {
      process.stderr.write(`  could not write the report in ${dir}: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
}
