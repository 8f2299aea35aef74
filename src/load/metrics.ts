/**
 * Live metrics of a load run in Prometheus form (prom-client, the one module that imports it).
 *
 * The send loop's hot path pays for one thing only: the latency histogram's `observe` per answer (a bucket
 * search over 16 bounds). Every counter and the in-flight gauge are read from the driver's own tallies
 * (LoadStats) when a scrape asks (prom-client's `collect` hook), so a request costs nothing more for them,
 * and what a scrape shows is exactly what the report will count.
 *
 * Latency is the driver's: from each request's intended send time to the end of its answer (coordinated
 * omission corrected), the same value LoadStats puts in its HDR histogram; a timeout's is counted too.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Scenario } from './source.js';
import type { LoadStats } from './stats.js';

/** Every metric's name starts with it (also prom-client's process metrics: CPU, heap, event-loop lag). */
export const METRIC_PREFIX = 'access_conformance_load_';

/** Seconds: 0.5 ms to 30 s, dense where webhook receivers live (1–100 ms). */
export const LATENCY_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30];

/** A transport failure's requests_total status label (there was no HTTP status). */
export const NO_STATUS = 'none';

export class LoadMetrics {
  readonly registry = new Registry();
  private stats: LoadStats | undefined;
  private readonly latency: Histogram;

  /** The hot path: called by LoadStats with each answer's latency in ms. */
  readonly observeMs = (ms: number): void => {
    this.latency.observe(ms / 1000);
  };

  constructor(scenario: Scenario) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ scenario });
    collectDefaultMetrics({ register: this.registry, prefix: METRIC_PREFIX });
    dropTotalGauges(this.registry);
    const self = this;
    // `collect` runs at scrape time with `this` the metric; each one restates its value from the tallies.
    const read = (fill: (stats: LoadStats) => void) =>
      function collect(this: Counter | Gauge): void {
        this.reset();
        const stats = self.stats;
        if (stats) fill(stats);
      };
    const requests: Counter = new Counter({
      name: `${METRIC_PREFIX}requests_total`,
      help: `Requests completed, by HTTP status ("${NO_STATUS}": failed in transport, see errors_total)`,
      labelNames: ['status'],
      registers,
      collect: read((stats) => {
        for (const [status, n] of stats.statuses) requests.inc({ status: String(status) }, n);
        const failed = sum(stats.failures.values());
        if (failed > 0) requests.inc({ status: NO_STATUS }, failed);
      }),
    });
    const errors: Counter = new Counter({
      name: `${METRIC_PREFIX}errors_total`,
      help: 'Requests counted as errors, by kind: unexpected_status (an answer the scenario does not expect) or the transport failure code (TIMEOUT, CONNECTION_RESET, …)',
      labelNames: ['kind'],
      registers,
      collect: read((stats) => {
        const failed = sum(stats.failures.values());
        errors.inc({ kind: 'unexpected_status' }, stats.errors - failed);
        for (const [code, n] of stats.failures) errors.inc({ kind: code }, n);
      }),
    });
    // The plain tallies: one counter each, no label.
    const tally = (name: string, help: string, pick: (stats: LoadStats) => number): Counter => {
      const counter: Counter = new Counter({ name: `${METRIC_PREFIX}${name}`, help, registers, collect: read((stats) => counter.inc(pick(stats))) });
      return counter;
    };
    tally('sent_total', 'Requests sent', (stats) => stats.sent);
    tally('dropped_total', 'Arrivals not sent because --max-in-flight requests were outstanding (k6: dropped_iterations)', (stats) => stats.dropped);
    tally('behind_schedule_total', 'Requests sent more than 5 ms after their intended time (the driver fell behind)', (stats) => stats.behind);
    const inFlight: Gauge = new Gauge({
      name: `${METRIC_PREFIX}in_flight`,
      help: 'Requests sent and not yet answered',
      registers,
      collect: read((stats) => inFlight.set(Math.max(0, stats.sent - stats.completed - stats.cancelled))),
    });
    this.latency = new Histogram({
      name: `${METRIC_PREFIX}request_duration_seconds`,
      help: 'Latency from each request\'s intended send time to the end of its answer (coordinated omission corrected); timeouts included',
      buckets: LATENCY_BUCKETS_SECONDS,
      registers,
    });
  }

  /** From now on the counters read these tallies (before: zeros, while the target starts). */
  attach(stats: LoadStats): void {
    this.stats = stats;
    stats.latencyTap = this.observeMs;
  }

  /** The exposition text (what GET /metrics answers). */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/**
 * Removes prom-client's default gauges named `…_total` (nodejs_active_handles_total, _requests_total,
 * _resources_total): Prometheus keeps the `_total` suffix for counters, and `promtool check metrics` warns
 * on a gauge that has it. Nothing is lost: the same counts are there per type, in the gauges of the same
 * name without the suffix (nodejs_active_handles{type=…}). Any such gauge a later prom-client adds goes too.
 */
export function dropTotalGauges(registry: Registry): string[] {
  const dropped: string[] = [];
  for (const metric of registry.getMetricsAsArray()) {
    if (metric instanceof Gauge && metric.name.endsWith('_total')) {
      registry.removeSingleMetric(metric.name);
      dropped.push(metric.name);
    }
  }
  return dropped;
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const n of values) total += n;
  return total;
}
