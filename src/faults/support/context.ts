/**
 * Run-context faults: a runner port that hands the automation a changed context. `mapLeaves` rewrites every
 * string (keys included) or number of a parsed JSON value; `contextRunner` wraps the reference's runner so
 * each run's context goes through a transform (and loses the body's exact text, as a re-serialising
 * service's would).
 */
import type { ReferenceDeps, Runner } from '../../reference/types.js';

export interface LeafMaps {
  string?: (text: string) => string;
  number?: (value: number) => number;
}

export function mapLeaves(value: unknown, maps: LeafMaps): unknown {
  if (typeof value === 'string') return maps.string ? maps.string(value) : value;
  if (typeof value === 'number') return maps.number ? maps.number(value) : value;
  if (Array.isArray(value)) return value.map((inner) => mapLeaves(inner, maps));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [maps.string ? maps.string(key) : key, mapLeaves(inner, maps)]));
  }
  return value;
}

/** The ports hook of a fault whose runner sees `transform(context)`; `applies` limits it to some bodies. */
export function contextRunner(transform: (context: unknown) => unknown, applies: (contextJson: string) => boolean = () => true) {
  return (deps: ReferenceDeps): Partial<ReferenceDeps> => {
    const inner = deps.runner;
    const runner: Runner = {
      run: (run) => (applies(run.contextJson ?? JSON.stringify(run.context) ?? '') ? inner.run({ ...run, context: transform(run.context), contextJson: undefined }) : inner.run(run)),
      list: (listenerId) => inner.list(listenerId),
    };
    return { runner };
  };
}

/**
 * The ports hook of a fault that changes the body's text on its way to the automation (an encoding, a
 * store): numbers keep their exact text, so only what `transform` touches changes.
 */
export function contextTextRunner(transform: (contextJson: string) => string) {
  return (deps: ReferenceDeps): Partial<ReferenceDeps> => {
    const inner = deps.runner;
    const runner: Runner = {
      run: (run) => {
        if (run.contextJson === undefined) return inner.run(run);
        const changed = transform(run.contextJson);
        return inner.run({ ...run, context: JSON.parse(changed) as unknown, contextJson: changed });
      },
      list: (listenerId) => inner.list(listenerId),
    };
    return { runner };
  };
}
