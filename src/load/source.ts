/**
 * Request sources: each scenario builds its requests AHEAD of the schedule, in batches, so the send loop
 * only takes a ready request and dispatches it. What the driver measures is then the target, not the
 * signing.
 */
import type { LoadRequest } from './load-transport.js';
import { SCENARIOS } from './constants.js';

export { SCENARIOS };

export type Scenario = (typeof SCENARIOS)[number];

export interface RequestSource {
  readonly scenario: Scenario;
  /** What counts as the expected answer, e.g. "200" or "409". */
  readonly expectedLabel: string;
  expected(status: number): boolean;
  /** Facts for the report (algorithm, listener, where signing runs…). No secrets. */
  readonly details: Record<string, string | number>;
  /** Prepares the first batches (and anything the scenario needs first: priming, tokens). */
  start(): Promise<void>;
  /** A ready request, or undefined when the producer has fallen behind (the send waits). */
  take(): LoadRequest | undefined;
  /** Resolves when a request is ready again after take() returned undefined (or the source is exhausted). */
  ready(): Promise<void>;
  /** True once a finite source (a corpus) has nothing more to give. */
  exhausted(): boolean;
  close(): Promise<void>;
}

export type Produce = (count: number) => LoadRequest[] | Promise<LoadRequest[]>;

/** How many batches a synchronous producer keeps ahead (PrebuiltQueue.depth). */
const SYNC_BATCHES = 4;

/**
 * A queue kept `depth` deep (from the peak rate) by a producer called with `batch`-sized requests. A synchronous producer
 * (HMAC: cheap) also refills inline when the queue runs dry; an asynchronous one (worker signing) cannot,
 * and the driver waits on ready().
 */
export class PrebuiltQueue {
  private batches: LoadRequest[][] = [];
  private head = 0;
  private size = 0;
  private refilling = false;
  private closed = false;
  private waiters: Array<() => void> = [];
  private failure: unknown;
  private done = false;

  /**
   * An asynchronous producer (a signer thread): about half a second of the peak rate ahead, refilled in
   * batches of an eighth of that. A synchronous one (HMAC) refills inline whenever the queue runs dry, so
   * SYNC_BATCHES batches ahead are enough: every prebuilt request is a live young object until it is sent,
   * and each garbage collection copies the live ones (measured with --trace-gc at a saturating rate: 8,192
   * held per thread doubled the scavenge time per request of a two-thread run over one thread's).
   */
  readonly depth: number;
  readonly batch: number;

  constructor(
    private readonly produce: Produce,
    peakRate: number,
    private readonly synchronous: boolean,
  ) {
    const ahead = Math.min(8192, Math.max(64, Math.ceil(peakRate * 0.5)));
    this.batch = Math.min(128, Math.max(16, Math.ceil(ahead / 8)));
    this.depth = synchronous ? Math.min(ahead, SYNC_BATCHES * this.batch) : ahead;
  }

  get available(): number {
    return this.size;
  }

  /** The producer returned an empty batch: a finite source ran out. */
  get exhausted(): boolean {
    return this.done && this.size === 0;
  }

  /** Fills to depth before the run starts. */
  async prime(): Promise<void> {
    while (this.size < this.depth && !this.done) this.push(await this.produce(this.batch));
  }

  take(): LoadRequest | undefined {
    if (this.failure !== undefined) throw this.failure;
    if (this.size === 0 && this.synchronous && !this.done) this.push(this.produce(this.batch) as LoadRequest[]);
    const first = this.batches[0];
    if (!first) {
      this.refill();
      return undefined;
    }
    const req = first[this.head];
    this.head += 1;
    this.size -= 1;
    if (this.head >= first.length) {
      this.batches.shift();
      this.head = 0;
    }
    if (this.size < this.depth / 2) this.refill();
    return req;
  }

  ready(): Promise<void> {
    if (this.size > 0 || this.failure !== undefined || this.closed || this.done) return Promise.resolve();
    this.refill();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  private push(items: LoadRequest[]): void {
    if (items.length === 0) {
      this.done = true;
      this.wake();
      return;
    }
    this.batches.push(items);
    this.size += items.length;
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private refill(): void {
    if (this.refilling || this.closed || this.done) return;
    this.refilling = true;
    const loop = async (): Promise<void> => {
      try {
        while (!this.closed && !this.done && this.size < this.depth) {
          if (this.synchronous) {
            // One batch per turn of the event loop, so sends due meanwhile are not held up.
            await new Promise<void>((resolve) => setImmediate(resolve));
            if (this.closed || this.done) break;
            this.push(this.produce(this.batch) as LoadRequest[]);
          } else {
            this.push(await this.produce(this.batch));
          }
        }
      } catch (error) {
        this.failure = error;
        this.wake();
      } finally {
        this.refilling = false;
      }
    };
    void loop();
  }
}

/** A RequestSource over a PrebuiltQueue, with optional set-up before priming and clean-up after. */
export function queueSource(
  scenario: Scenario,
  expectedStatus: number,
  queue: PrebuiltQueue,
  details: Record<string, string | number>,
  before?: () => Promise<void>,
  after?: () => Promise<void>,
): RequestSource {
  return {
    scenario,
    expectedLabel: String(expectedStatus),
    expected: (status) => status === expectedStatus,
    details,
    async start() {
      if (before) await before();
      await queue.prime();
    },
    take: () => queue.take(),
    ready: () => queue.ready(),
    exhausted: () => queue.exhausted,
    async close() {
      queue.close();
      if (after) await after();
    },
  };
}
