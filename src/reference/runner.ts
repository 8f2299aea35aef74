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

export function createMemoryRunner(options: { maxRunsPerListener?: number } = {}): Runner {
  const maxRuns = options.maxRunsPerListener ?? 1000;
  const runs = new Map<string, AutomationRun[]>();
  return {
    run(run) {
      let list = runs.get(run.listenerId);
      if (list === undefined) {
        list = [];
        runs.set(run.listenerId, list);
      }
      list.push(rememberedRun(run));
      // Drop in batches so the hot path does not shift the array on every run once full.
      if (list.length > maxRuns + Math.max(1, maxRuns >> 4)) list.splice(0, list.length - maxRuns);
    },
    list(listenerId) {
      const list = runs.get(listenerId) ?? [];
      return list.slice(Math.max(0, list.length - maxRuns));
    },
  };
}
