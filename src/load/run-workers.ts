/**
 * The sending part of `runLoad` on several threads (`load --workers N`, workers.ts): the totals split
 * evenly (connections, max in flight, the duplicate pool, a corpus's entries), each worker's setup made,
 * set-up raced against a stop as the single-thread run's is, then one merged run. run.ts calls it in place
 * of its own source and send loop; everything after (the report, the exit code) is the same.
 */
import { untilStopped } from '../stop/race.js';
import { LOAD_DEFAULTS } from './constants.js';
import type { Corpus } from './corpus.js';
import type { DriveResult, IntervalState } from './driver.js';
import type { ArrivalSchedule, ScheduleSpec } from './schedule.js';
import type { IntervalRow, LoadStats } from './stats.js';
import type { WorkerSetup } from './worker-share.js';
import { startWorkers } from './workers.js';

/** Part `index` of `total` split over `count` as evenly as whole numbers allow (the first ones get the remainder). */
export function evenShare(total: number, index: number, count: number): number {
  return Math.floor(total / count) + (index < total % count ? 1 : 0);
}

/** How many workers a run can use: at most one per connection and per request allowed in flight. */
export function usableWorkers(asked: number, connections: number, maxInFlight: number): number {
  return Math.max(1, Math.min(asked, connections, maxInFlight));
}

/** The run's settings, totals not yet split (the split is here), and how to tell the run's phases. */
export interface WorkersRunInput
  extends Pick<WorkerSetup, 'scenario' | 'settings' | 'profile' | 'peakRate' | 'connections' | 'maxInFlight' | 'timeoutMs' | 'drainTimeoutMs' | 'interruptDrainMs' | 'haltDrainMs' | 'capped' | 'clockOffsetSeconds' | 'latencies'> {
  count: number;
  corpus: Corpus | undefined;
  spec: ScheduleSpec;
  schedule: ArrivalSchedule;
  signal?: AbortSignal;
  /** Told before priming (`keys`) and before sending (`load`), as the single-thread run tells them. */
  enter: (phase: 'keys' | 'load') => Promise<void>;
  /** Once every worker primed: the merged stats, the halt signal and the per-second consumer to use. */
  begin: (expectedLabel: string) => { stats: LoadStats; halt: AbortSignal; onInterval?: (row: IntervalRow, state: IntervalState) => void };
}

export interface WorkersRunOutcome {
  stats: LoadStats;
  result: DriveResult;
  expectedLabel: string;
  details: Record<string, string | number>;
  /** Each thread's busy share while sending. */
  busy: number[];
}

export async function runWithWorkers(input: WorkersRunInput): Promise<WorkersRunOutcome> {
  const { count } = input;
  const dupPool = input.settings.dupPool ?? LOAD_DEFAULTS.dupPool;
  const setups: WorkerSetup[] = Array.from({ length: count }, (_, index) => ({
    index,
    count,
    scenario: input.scenario,
    profile: input.profile,
    settings: { ...input.settings, dupPool: Math.max(1, evenShare(dupPool, index, count)) },
    ...(input.corpus ? { corpus: { ...input.corpus, requests: input.corpus.requests.filter((_, i) => i % count === index) } } : {}),
    schedule: input.spec,
    peakRate: input.peakRate / count,
    connections: evenShare(input.connections, index, count),
    maxInFlight: evenShare(input.maxInFlight, index, count),
    timeoutMs: input.timeoutMs,
    drainTimeoutMs: input.drainTimeoutMs,
    interruptDrainMs: input.interruptDrainMs,
    haltDrainMs: input.haltDrainMs,
    capped: input.capped,
    clockOffsetSeconds: input.clockOffsetSeconds,
    latencies: input.latencies,
  }));
  const pool = startWorkers(setups);
  try {
    await input.enter('keys');
    const ready = await untilStopped(pool.ready, input.signal);
    await input.enter('load');
    const { stats, halt, onInterval } = input.begin(ready.expectedLabel);
    const { result, busy } = await pool.run({ schedule: input.schedule, stats, signal: input.signal, halt, onInterval });
    const details = { ...ready.details, workers: count, ...('duplicatePool' in ready.details ? { duplicatePool: dupPool } : {}) };
    return { stats, result, expectedLabel: ready.expectedLabel, details, busy };
  } finally {
    await pool.terminate();
  }
}
