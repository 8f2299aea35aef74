/**
 * What a load run is asked (`runLoad`'s options) and the phases it goes through: their own module, because the
 * sources a worker thread builds (scenario-source.ts) read the settings too, and run.ts starts those workers.
 */
import type { HmacListenerKey, JwtAlg, ResolvedProfile } from '../profile/types.js';
import type { Phase } from '../stop/phase.js';
import type { ListenAddress } from '../values.js';
import type { Stage } from './parse.js';
import type { Scenario } from './source.js';

/** The phases of a load run, in the stop room's words: `load` is the measured sending. */
export type LoadPhase = Extract<Phase, 'profile' | 'embedded reference' | 'keys' | 'load'>;

export interface LoadOptions {
  scenario?: Scenario;
  /** A target profile file; neither this nor `profile`: the embedded reference. */
  profilePath?: string;
  /** An already-loaded profile (tests, benchmarks). */
  profile?: ResolvedProfile;
  /** Constant rate per second, with durationMs. */
  rate?: number;
  durationMs?: number;
  /** Or a ramp. */
  stages?: Stage[];
  connections?: number;
  maxInFlight?: number;
  /** Sending threads (`--workers`); `connections` and `maxInFlight` stay totals, split evenly. Default 1. */
  workers?: number;
  maxRequests?: number;
  bodyBytes?: number;
  alg?: JwtAlg;
  listener?: HmacListenerKey;
  tokenMethod?: 'secret' | 'assertion';
  corpusPath?: string;
  dupPool?: number;
  pageSize?: number;
  timeoutMs?: number;
  thresholds?: string[];
  /** Adds STRICT_THRESHOLDS to `thresholds` (they replace the default error threshold). */
  strict?: boolean;
  /** Report directory; null writes nothing. Default `reports`. */
  outDir?: string | null;
  seed?: string;
  signal?: AbortSignal;
  /** Progress lines, one per second. */
  onProgress?: (line: string) => void;
  /** Serve Prometheus metrics of the run at http://HOST:PORT/metrics while it runs (metrics.ts). */
  metricsListen?: ListenAddress;
  /** Told the metrics URL once bound (the real port when 0 was asked). */
  /** Where the metrics listen; `exposure` says what an address beyond loopback exposes (print it as a warning). */
  onMetricsListening?: (url: string, exposure?: string) => void;
  /**
   * Told as the run enters each phase (the CLI's run scope names it to its supervisor): the target's profile
   * or the embedded reference, priming (tokens, signed bodies: `keys`), then `load` once set-up is done.
   * Awaited; a rejection is ignored (a stop arrives through `signal`).
   */
  onPhase?: (phase: LoadPhase) => Promise<void> | void;
  /** Append one JSON line of aggregates a second to this file (stream.ts). */
  streamPath?: string;
  /** Every threshold (but `rate`) stops the run when crossed past the grace period (abort.ts). */
  abortOnFail?: boolean;
  /** The grace period of --abort-on-fail and `:abort` thresholds; default DEFAULT_ABORT_AFTER_MS. */
  abortAfterMs?: number;
}
