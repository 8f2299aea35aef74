/**
 * A token bucket of time: diagnoses may take at most `share` of the wall clock (after a burst of
 * `burstMs`), so a flood of bad signatures costs the sandbox a fixed share of its time, never more. Past
 * it a refusal gets the reference's plain answer and a sentence saying the diagnosis was skipped.
 */
export interface TimeBudgetOptions {
  /** Fraction of the wall clock diagnoses may use; default 0.1. */
  share?: number;
  /** Time the bucket holds when full, ms; default 250. */
  burstMs?: number;
  /** Milliseconds; default performance.now (tests drive their own). */
  clock?: () => number;
}

export const DEFAULT_DIAGNOSIS_SHARE = 0.1;

export class TimeBudget {
  readonly share: number;
  readonly #burst: number;
  readonly #clock: () => number;
  #available: number;
  #last: number;

  constructor(options: TimeBudgetOptions = {}) {
    this.share = options.share ?? DEFAULT_DIAGNOSIS_SHARE;
    this.#burst = options.burstMs ?? 250;
    this.#clock = options.clock ?? (() => performance.now());
    this.#available = this.#burst;
    this.#last = this.#clock();
  }

  /** True when a diagnosis may run now (the bucket holds time). */
  allows(): boolean {
    const now = this.#clock();
    this.#available = Math.min(this.#burst, this.#available + (now - this.#last) * this.share);
    this.#last = now;
    return this.#available > 0;
  }

  /** Runs `work` and takes the time it took from the bucket. */
  spend<T>(work: () => T): T {
    const started = this.#clock();
    try {
      return work();
    } finally {
      this.#available -= this.#clock() - started;
    }
  }
}
