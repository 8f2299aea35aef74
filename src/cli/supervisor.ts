/**
 * The supervisor: `run`, `load`, `send` and `serve` run in a child process that this parent watches, so the
 * deadline and the signals hold even when the child's JavaScript cannot run (a native deadlock, like Node
 * 20's key export, freezes the event loop and every timer and signal handler with it).
 *
 * - The child (same entry, AC_SUPERVISED_CHILD=1) beats a heartbeat and reports each phase over IPC
 *   (run-scope.ts), and says when its own reports are written.
 * - SIGINT / SIGTERM to the parent are relayed once to the child (it is in its own process group, so a
 *   terminal's Ctrl-C reaches it once, through here). A child that handles them writes its reports and ends
 *   with 130 / 143; a frozen one (no heartbeat for FROZEN_MS) or one that takes longer than SIGNAL_GRACE_MS
 *   is killed.
 * - --max-duration (flag or ACCESS_CONFORMANCE_MAX_DURATION): at the deadline a frozen child is killed at
 *   once, a live one gets DEADLINE_GRACE_MS to end itself (its run scope stops it at the same deadline).
 * - With or without a deadline, a heartbeat silent for STALL_MS means the main thread is stuck: killed.
 *
 * After killing the child, or when a child it relayed a signal to ended without its reports (the signal came
 * while the child's entry still loaded), the parent writes `<out>/report.json` (stopped-report.ts) for `run`
 * and `load`, naming the phase the child was in, and ends with 2 (deadline, stuck) or 130 / 143 (a signal).
 * DEBUG=access-conformance shows its decisions; the child shows its phases.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { debugLine } from '../debug.js';
import { signalExitCode, type StopSignal } from '../errors.js';
import { formatDuration, parseDuration } from '../values.js';
import { envVariableOf } from './env-args.js';
import { HEARTBEAT_MS, tellSupervisor, type SupervisorMessage } from './run-scope.js';
import { writeStoppedReportUnlessNewer, type StoppedReportInput } from './stopped-report.js';

/** The commands that run under a supervisor; the others (list, diff, --help) are short and run in-process. */
const SUPERVISED = new Set(['run', 'load', 'send', 'serve']);
/** The commands whose stop the parent reports in <out>/report.json. */
const REPORTING = new Set(['run', 'load']);
/** A heartbeat older than this at a deadline or a signal: the child cannot act on it, so it is killed. */
const FROZEN_MS = 5_000;
/**
 * How long a live child may take to end itself after its deadline: cancelling checks stuck on a hung target
 * and writing every report took 11 s under load in tests/hostile/deadlines.test.ts.
 */
const DEADLINE_GRACE_MS = 25_000;
/** How long a live child may take to write its reports after a signal (its own bound is 20 s). */
const SIGNAL_GRACE_MS = 25_000;
/** After a second signal: the child ends at once on its own; killed if it does not. */
const SECOND_SIGNAL_MS = 3_000;
/** How long after the child's exit its IPC channel may take to close before the exit alone decides. */
const CLOSE_AFTER_EXIT_MS = 2_000;
/** A heartbeat silent this long, deadline or not: the main thread is stuck. AC_SUPERVISOR_STALL_MS overrides it. */
const STALL_MS = 60_000;

const CHILD_ENV = 'AC_SUPERVISED_CHILD';

/** The command to supervise, or undefined to run in-process (a child already, --help, list, diff). */
export function supervisedCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env[CHILD_ENV] === '1' || env.AC_NO_SUPERVISOR === '1') return undefined;
  if (argv.some((arg) => arg === '--help' || arg === '-h' || arg === '--version')) return undefined;
  const first = argv[0];
  return first !== undefined && SUPERVISED.has(first) ? first : undefined;
}

/** A flag's value from the command line (`--name v`, `--name=v`) or its ACCESS_CONFORMANCE_ variable. */
export function flagValue(argv: readonly string[], name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (let i = argv.length - 1; i >= 0; i -= 1) {
    const arg = argv[i]!;
    if (arg === `--${name}` && i + 1 < argv.length) return argv[i + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return env[envVariableOf(name)];
}

/** --max-duration as the child will read it; undefined when absent or invalid (the child reports that). */
export function deadlineOf(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): number | undefined {
  const value = flagValue(argv, 'max-duration', env);
  if (value === undefined) return undefined;
  try {
    return parseDuration(value, { flag: '--max-duration' });
  } catch {
    return undefined;
  }
}

interface Stop {
  code: StoppedReportInput['code'];
  message: string;
  signal?: StopSignal;
}

/** Signals the entry caught before the supervisor loaded, and its catcher (removed once ours are in place). */
export interface EarlySignals {
  early: readonly NodeJS.Signals[];
  remember: (signal: NodeJS.Signals) => void;
}

/** Runs the command in a supervised child; resolves with the exit code the process must end with. */
export function supervise(command: string, argv: readonly string[], entry: string, env: NodeJS.ProcessEnv = process.env, caught?: EarlySignals): Promise<number> {
  const startedAt = Date.now();
  const maxDurationMs = deadlineOf(argv, env);
  const stallMs = Number(env.AC_SUPERVISOR_STALL_MS) > 0 ? Number(env.AC_SUPERVISOR_STALL_MS) : STALL_MS;
  const outDir = REPORTING.has(command) && argv[1] !== 'prepare' ? (flagValue(argv, 'out', env) ?? 'reports') : undefined;
  const child: ChildProcess = fork(entry, [...argv], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...env, [CHILD_ENV]: '1', AC_SUPERVISOR_STARTED_AT: String(startedAt) },
    // Its own process group: a terminal's Ctrl-C reaches the parent only, which relays it once.
    detached: true,
  });
  debugLine('supervisor', `${command} in child ${child.pid}${maxDurationMs === undefined ? '' : `, deadline ${formatDuration(maxDurationMs)}`}`);
  let phase = 'start';
  let reported = false;
  let lastBeat = Date.now();
  let stop: Stop | undefined;
  let signalAt: number | undefined;
  let killAt: number | undefined;

  child.on('message', (message: SupervisorMessage) => {
    lastBeat = Date.now();
    if (message.type === 'phase') phase = message.phase;
    else if (message.type === 'reported') reported = true;
  });
  const kill = (why: Stop): void => {
    if (killAt !== undefined) return;
    stop ??= why;
    killAt = Date.now();
    debugLine('supervisor', `killing child ${child.pid} in phase ${phase}: ${why.message}`);
    child.kill('SIGKILL');
  };
  const frozen = (): boolean => Date.now() - lastBeat > FROZEN_MS;
  // Started by npm or npx: a wrapper that is gone (this process reparented) stops the command as SIGTERM
  // would, so a killed `npx access-conformance serve &` leaves no server behind. The child cannot see it:
  // its parent is this process, which stays. Started any other way, a reparented command keeps running.
  const wrapper = env.npm_command !== undefined || env.npm_execpath !== undefined ? process.ppid : undefined;
  const watchdog = setInterval(() => {
    if (wrapper !== undefined && signalAt === undefined && process.ppid !== wrapper) onSignal('SIGTERM');
    const now = Date.now();
    const silent = now - lastBeat;
    if (silent > stallMs) {
      kill({ code: 'DEADLINE', message: `the ${command} stopped responding: its main thread did not run for ${formatDuration(silent)} in phase "${phase}"` });
    } else if (maxDurationMs !== undefined && now - startedAt > maxDurationMs && (frozen() || now - startedAt > maxDurationMs + DEADLINE_GRACE_MS)) {
      kill({ code: 'DEADLINE', message: `the ${command} reached its deadline of ${formatDuration(maxDurationMs)} (--max-duration) in phase "${phase}" and ${frozen() ? 'its main thread was not running' : 'did not stop'}` });
    } else if (signalAt !== undefined && stop?.signal && (frozen() || now - signalAt > SIGNAL_GRACE_MS)) {
      kill({ ...stop, message: `${stop.message}; it ${frozen() ? 'was not running' : 'did not stop'} in phase "${phase}"` });
    }
  }, 250);

  const onSignal = (received: NodeJS.Signals): void => {
    const signal: StopSignal = received === 'SIGINT' ? 'SIGINT' : 'SIGTERM';
    if (signalAt === undefined) {
      signalAt = Date.now();
      stop ??= { code: 'INTERRUPTED', message: `the ${command} was interrupted by ${signal}`, signal };
      debugLine('supervisor', `${signal}: relayed to child ${child.pid} in phase ${phase}`);
    } else {
      // A second signal: the child's handlers end it at once; a child that does not is killed shortly.
      setTimeout(() => kill(stop ?? { code: 'INTERRUPTED', message: `the ${command} was interrupted by ${signal}`, signal }), SECOND_SIGNAL_MS).unref();
    }
    child.kill(received);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  if (caught) {
    process.off('SIGINT', caught.remember);
    process.off('SIGTERM', caught.remember);
    // A signal while the CLI loaded: relayed as soon as the child exists (it ends in phase "start").
    for (const signal of caught.early.slice(0, 2)) onSignal(signal);
  }

  return new Promise<number>((resolveExit) => {
    // 'close', not 'exit': it comes once the IPC channel is drained, so a "reported" the child sent just
    // before it ended has been read. A grandchild that inherited the channel could hold it open after the
    // child is gone: then 'exit' decides, CLOSE_AFTER_EXIT_MS later.
    let settled = false;
    // Not unref'd: the process's exit code is decided here, so nothing may end it before.
    let closeWait: NodeJS.Timeout | undefined;
    child.once('exit', (code, killedBy) => {
      closeWait = setTimeout(() => settle(code, killedBy), CLOSE_AFTER_EXIT_MS);
    });
    child.once('close', (code, killedBy) => settle(code, killedBy));
    function settle(code: number | null, killedBy: NodeJS.Signals | null): void {
      if (settled) return;
      settled = true;
      if (closeWait) clearTimeout(closeWait);
      clearInterval(watchdog);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      // Ended by a relayed signal before its handlers existed: an interrupt all the same.
      if (!stop && (killedBy === 'SIGINT' || killedBy === 'SIGTERM')) {
        stop = { code: 'INTERRUPTED', message: `the ${command} was interrupted by ${killedBy}`, signal: killedBy };
      }
      const endedItself = killAt === undefined && code !== null;
      if (endedItself) {
        debugLine('supervisor', `child ended with ${code} in phase ${phase}`);
        // A child that ended on a relayed signal without its reports (it caught the signal while its entry
        // still loaded, before any handler of the command existed) still leaves a report that says so.
        if (stop?.signal && code === signalExitCode(stop.signal)) void writeFallbackReport(stop, code).finally(() => resolveExit(code));
        else resolveExit(code);
        return;
      }
      if (!stop) {
        // A crash (SIGSEGV, SIGABRT, the kernel's OOM killer): a harness error.
        const message = `the ${command}'s process ended by ${killedBy ?? 'an unknown cause'} in phase "${phase}"`;
        process.stderr.write(`error[INTERNAL]: ${message}\n`);
        resolveExit(killedBy ? Math.min(255, 128 + (constants.signals[killedBy] ?? 0)) : 2);
        return;
      }
      const exitCode = stop.signal ? signalExitCode(stop.signal) : 2;
      process.stderr.write(`error[${stop.code}]: ${stop.message}\n`);
      void writeFallbackReport(stop, exitCode).finally(() => resolveExit(exitCode));
    }
  });

  async function writeFallbackReport(why: Stop, exitCode: number): Promise<void> {
    if (outDir === undefined || reported) return;
    try {
      const path = await writeStoppedReportUnlessNewer(outDir, {
        command,
        code: why.code,
        message: why.message,
        ...(why.signal ? { signal: why.signal } : {}),
        phase,
        exitCode,
        startedAt,
        writtenBy: 'supervisor',
      });
      if (path !== undefined) process.stderr.write(`  report: ${path} (phase "${phase}")\n`);
    } catch (error) {
      process.stderr.write(`  could not write the report in ${outDir}: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
}

/**
 * The child's side, first thing in the process: the heartbeat, and an end when the parent is gone (its IPC
 * channel closes: treated as SIGTERM, so the command still writes its reports). No-op when not supervised.
 */
export function startSupervisedChild(): void {
  if (process.env[CHILD_ENV] !== '1' || !process.send) return;
  const beat = setInterval(() => tellSupervisor({ type: 'beat' }), HEARTBEAT_MS);
  beat.unref();
  process.once('disconnect', () => {
    clearInterval(beat);
    process.kill(process.pid, 'SIGTERM');
  });
  // The channel must not keep a finished command alive.
  process.channel?.unref();
}
