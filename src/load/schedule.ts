/**
 * The open-model arrival schedule: when each request is MEANT to be sent, fixed before the run, whatever
 * the target does. Latency is measured from these intended times, so a target that stalls shows its stall
 * in every request scheduled behind it (no coordinated omission).
 *
 * The rate is piecewise linear (k6's ramping-arrival-rate): stage k goes from the previous rate to its
 * target over its duration. Arrival i happens when the cumulative count N(t) = ∫rate reaches i, so a
 * constant rate r sends at 0, 1/r, 2/r, …
 */
import type { Stage } from './parse.js';

export interface ScheduleSpec {
  /** Rate at t = 0 (a constant-rate run has startRate = its single stage's target). */
  startRate: number;
  stages: Stage[];
  /** Cap on the number of arrivals (--max-requests). */
  maxRequests?: number;
  /**
   * One worker's share (`load --workers`): arrivals index, index + count, index + 2·count, … of the whole
   * schedule, as k6 stripes arrivals over execution segments. The shares of 0..count-1 together are the
   * whole schedule, each arrival at its own time, so no worker drifts from the others.
   */
  segment?: { index: number; count: number };
}

interface StagePlan {
  startMs: number;
  durationMs: number;
  from: number;
  to: number;
  /** Cumulative arrivals (real-valued) at the stage start, and within the stage. */
  startCount: number;
  count: number;
}

const EPSILON = 1e-9;

export class ArrivalSchedule {
  /** How many arrivals the whole schedule holds (after --max-requests). */
  readonly total: number;
  /** Planned length in ms. */
  readonly durationMs: number;
  private readonly plans: StagePlan[];
  private index: number;
  private readonly step: number;
  private stage = 0;

  constructor(spec: ScheduleSpec) {
    this.plans = [];
    let from = spec.startRate;
    let startMs = 0;
    let startCount = 0;
    for (const stage of spec.stages) {
      const count = ((from + stage.target) / 2) * (stage.durationMs / 1000);
      this.plans.push({ startMs, durationMs: stage.durationMs, from, to: stage.target, startCount, count });
      startMs += stage.durationMs;
      startCount += count;
      from = stage.target;
    }
    this.durationMs = startMs;
    const planned = startCount > EPSILON ? Math.ceil(startCount - EPSILON) : 0;
    this.total = spec.maxRequests === undefined ? planned : Math.min(planned, spec.maxRequests);
    this.index = spec.segment?.index ?? 0;
    this.step = spec.segment?.count ?? 1;
  }

  /** Constant rate for a duration. */
  static constant(rate: number, durationMs: number, maxRequests?: number): ArrivalSchedule {
    return new ArrivalSchedule({ startRate: rate, stages: [{ durationMs, target: rate }], maxRequests });
  }

  /** How many arrivals of the whole schedule fall to segment `index` of `count`. */
  static shareOf(total: number, index: number, count: number): number {
    return index < total ? Math.floor((total - 1 - index) / count) + 1 : 0;
  }

  /** Intended offset (ms from the start) of the next arrival, or undefined when the schedule is over. */
  next(): number | undefined {
    if (this.index >= this.total) return undefined;
    const i = this.index;
    while (this.stage < this.plans.length) {
      const plan = this.plans[this.stage];
      const local = i - plan.startCount;
      if (local < plan.count - EPSILON) {
        this.index += this.step;
        return plan.startMs + offsetWithin(plan, Math.max(0, local)) * 1000;
      }
      this.stage += 1;
    }
    // Rounding left the last fraction of an arrival beyond the end: stop here.
    this.index = this.total;
    return undefined;
  }

  /** The asked rate (per second) at an offset, for "asked vs achieved" over time. */
  rateAt(ms: number): number {
    for (const plan of this.plans) {
      if (ms < plan.startMs + plan.durationMs) {
        const f = Math.max(0, (ms - plan.startMs) / plan.durationMs);
        return plan.from + (plan.to - plan.from) * f;
      }
    }
    return 0;
  }

  /** Arrivals the schedule asks for in [fromMs, toMs). */
  countBetween(fromMs: number, toMs: number): number {
    return cumulative(this.plans, toMs) - cumulative(this.plans, fromMs);
  }
}

/** Seconds into the stage at which `local` arrivals have happened: the inverse of a linear-rate integral. */
function offsetWithin(plan: StagePlan, local: number): number {
  const seconds = plan.durationMs / 1000;
  const slope = (plan.to - plan.from) / seconds;
  if (Math.abs(slope) < EPSILON) return plan.from > 0 ? local / plan.from : 0;
  // local = from·τ + slope·τ²/2  →  τ = (−from + √(from² + 2·slope·local)) / slope
  const root = Math.sqrt(Math.max(0, plan.from * plan.from + 2 * slope * local));
  return Math.min(seconds, Math.max(0, (root - plan.from) / slope));
}

function cumulative(plans: StagePlan[], ms: number): number {
  let total = 0;
  for (const plan of plans) {
    if (ms <= plan.startMs) break;
    const tau = Math.min(ms - plan.startMs, plan.durationMs) / 1000;
    const slope = (plan.to - plan.from) / (plan.durationMs / 1000);
    total += plan.from * tau + (slope * tau * tau) / 2;
  }
  return total;
}
