/**
 * Every time bound of stopping, in one table, each with the reason it exists. A bound is changed here and
 * nowhere else; docs/running.md ("Stopping") quotes them.
 */
export interface StopTiming {
  readonly ms: number;
  readonly why: string;
}

export const STOP_TIMINGS = {
  startUp: {
    ms: 180_000,
    why:
      'without --max-duration, how long a command may take to start (profile, state, embedded reference, keys, image): a hang with the ' +
      'event loop free beats the heartbeat, so only this ends it (AC_TEST_START_UP_MS shortens it in tests); its work after start-up has its own bound',
  },
  heartbeat: {
    ms: 500,
    why: 'how often a supervised command tells its parent it runs: a frozen main thread stops it, and the parent sees that',
  },
  watch: {
    ms: 250,
    why: "how often the supervisor looks at the heartbeat, the deadline and the npm/npx wrapper: a dead wrapper is noticed within a second (issue 39)",
  },
  frozen: {
    ms: 5_000,
    why: 'a heartbeat older than this at a deadline or a signal: the command cannot act on it, so its parent kills it at once',
  },
  stall: {
    ms: 60_000,
    why: 'a heartbeat silent this long, deadline or not: the main thread is stuck (AC_SUPERVISOR_STALL_MS overrides it)',
  },
  reportAfterStop: {
    ms: 20_000,
    why: 'how long a stopped command may take to write its reports before it ends anyway: hung reports must not hold a CI job past its timeout',
  },
  stopGrace: {
    ms: 25_000,
    why:
      'how long the parent lets a live command end itself after a signal or its deadline before killing it: above reportAfterStop, and ' +
      'cancelling checks stuck on a hung target then writing every report took 11 s under load (tests/hostile/deadlines.test.ts)',
  },
  secondSignal: {
    ms: 3_000,
    why: 'after a second signal the command ends at once on its own; its parent kills it if it has not within this',
  },
  forcedClose: {
    ms: 15_000,
    why: 'a forced stop (second signal, reports too slow) waits this long for the target (a container, the embedded reference) to stop',
  },
  cleanup: {
    ms: 10_000,
    why: 'how long one cleanup finalizer may take before the next runs regardless',
  },
  closeAfterExit: {
    ms: 2_000,
    why: "after the command's exit, how long its IPC channel may take to close (a grandchild holding it) before the exit alone decides",
  },
  exitAfterReturn: {
    ms: 3_000,
    why: 'once a command returned its exit code, how long what it started (a suite worker on a hung target, a socket) may keep the process',
  },
  suiteClose: {
    ms: 5_000,
    why: "after a stopped run, how long closing vitest may take before the engine goes on: a check stuck on a hung target holds vitest's close (engine/vitest-bridge.ts)",
  },
  suiteThreadStop: {
    ms: 5_000,
    why: "how long the next run waits for a stopped run's suite worker to finish stopping before that thread is ended instead of reused (engine/suite-pool.ts)",
  },
  clientCloseGrace: {
    ms: 1_000,
    why: "how long closing a client lets answers in flight finish before cutting them: close must not hang on a hung target, and every command closes one as it ends",
  },
  faultRun: {
    ms: 4 * 60_000,
    why:
      "the deadline of one fault or variant run of the self-verification, instead of run's derived one (30 s and 0.5 s a check): on a loaded machine " +
      'a slow run is still judged rather than cut short, and it ends just inside the 5 min after which the pool ends a worker',
  },
  faultWorker: {
    ms: 5 * 60_000,
    why: "how long the self-verification waits for one fault run's worker (or the reference's CLI run) before killing it: above faultRun, so a run that ends at its own deadline is still judged",
  },
  loadInterruptDrain: {
    ms: 5_000,
    why: "after a signal, how long a load run's requests in flight may finish (at most --timeout) before they count as cancelled by the harness",
  },
  loadTargetStart: {
    ms: 30_000,
    why: "how long `load` without --profile waits for its embedded reference's child process to say it listens (a child that never does is a harness error, not a wait for ever)",
  },
  loadTargetClose: {
    ms: 5_000,
    why: "after `load`, how long the embedded reference's child may take to close before it is killed (SIGKILL), so a stuck child never holds the command's end",
  },
  loadHaltDrain: {
    ms: 1_000,
    why: 'after a threshold stopped a load run (--abort-on-fail, :abort), how long requests in flight may finish (at most --timeout) before they count as cancelled',
  },
  containerStop: {
    ms: 5_000,
    why: "how long Docker gives an image target to stop on SIGTERM before it kills it (docker stop's timeout): inside forcedClose with room for the removal",
  },
  containerLogDrain: {
    ms: 1_500,
    why: "once an image target stopped, how long its log stream may take to end, so that its last lines are in the log file and in the error that quotes them",
  },
  keptContainerLog: {
    ms: 300,
    why: "with --keep-container, how long the command waits for a kept container's last log lines to reach its log file: the container runs on, so its log never ends",
  },
  syncRemove: {
    ms: 10_000,
    why: 'at process exit, how long the synchronous removal of a container (a child process asking the Docker API to delete it) may hold the exit',
  },
} as const satisfies Record<string, StopTiming>;

export type StopTimingName = keyof typeof STOP_TIMINGS;

/** The bound in milliseconds. */
export function stopMs(name: StopTimingName): number {
  return STOP_TIMINGS[name].ms;
}
