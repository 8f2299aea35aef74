/**
 * The reference's automations: running one means remembering that it ran, with which event and context,
 * so the runs hook can show it. The log per listener is bounded (oldest runs go first): contexts can be
 * 64 KB each and a load test sends many. A run that comes with the body's JSON text keeps only that text
 * (the parsed value is rebuilt when asked for), so remembering it losslessly costs no more than before.
 */
import type { AutomationRun, Runner } from './types.js';

/** The run as it is kept: a run with its JSON text keeps only the text, parsed again when asked for. */
export function rememberedRun(run: AutomationRun): AutomationRun {
  const { listenerId, eventId, at, contextJson } = run;
  if (contextJson === undefined) return run;
  return {
    listenerId,
    eventId,
    at,
    contextJson,
    get context(): unknown {
      return JSON.parse(contextJson) as unknown;
    },
  };
}

/**
 * One listener's last runs, in a ring of fixed size: a run is three array stores (no object per run, no
 * array shifted), and its AutomationRun is made only when the hook lists it. A run without its text keeps
 * the value it came with, in `contexts`.
 */
class RunRing {
  readonly eventIds: string[] = [];
  readonly ats: number[] = [];
  /** The JSON text, or undefined when the run came without one (then its context is in `contexts`). */
  readonly texts: Array<string | undefined> = [];
  readonly contexts: unknown[] = [];
  /** Runs ever recorded: the next one goes to `count % size`. */
  count = 0;

  constructor(readonly listenerId: string, readonly size: number) {}

  add(run: AutomationRun): void {
    const slot = this.count % this.size;
    this.eventIds[slot] = run.eventId;
    this.ats[slot] = run.at;
    this.texts[slot] = run.contextJson;
    // A slot's context is kept only for a run without its text; else it must not pin an older run's value.
    this.contexts[slot] = run.contextJson === undefined ? run.context : undefined;
    this.count += 1;
  }

  list(): AutomationRun[] {
    const out: AutomationRun[] = [];
    for (let seq = Math.max(0, this.count - this.size); seq < this.count; seq += 1) {
      const slot = seq % this.size;
      const contextJson = this.texts[slot];
      const run = { listenerId: this.listenerId, eventId: this.eventIds[slot] as string, at: this.ats[slot] as number };
      out.push(contextJson === undefined ? { ...run, context: this.contexts[slot] } : rememberedRun({ ...run, context: undefined, contextJson }));
    }
    return out;
  }
}

export function createMemoryRunner(options: { maxRunsPerListener?: number } = {}): Runner {
  const maxRuns = Math.max(0, options.maxRunsPerListener ?? 1000);
  const rings = new Map<string, RunRing>();
  return {
    run(run) {
      if (maxRuns === 0) return;
      let ring = rings.get(run.listenerId);
      if (ring === undefined) {
        ring = new RunRing(run.listenerId, maxRuns);
        rings.set(run.listenerId, ring);
      }
      ring.add(run);
    },
    list(listenerId) {
      return rings.get(listenerId)?.list() ?? [];
    },
  };
}
