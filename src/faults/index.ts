/**
 * Faulty variants of the reference: each breaks named requirements on purpose, so a run against it proves
 * the checks of those requirements can fail. A fault changes the sandbox only from outside, through
 * {@link SandboxCustomize}: wrapping the handler or replacing ports (see support/define.ts). The list of
 * faults is in all.ts; `serve --fault`, `run --fault` and the reference image look them up here.
 */
import type { SandboxCustomize } from '../tenant/types.js';
import { ALL_FAULTS } from './all.js';
import type { FaultDefinition } from './types.js';

export type { FaultArea, FaultDefinition } from './types.js';

function index(definitions: readonly FaultDefinition[]): Record<string, FaultDefinition> {
  const record: Record<string, FaultDefinition> = {};
  for (const fault of definitions) {
    if (Object.prototype.hasOwnProperty.call(record, fault.name)) throw new Error(`two faults are named ${fault.name}`);
    if (fault.breaks.length === 0) throw new Error(`fault ${fault.name} breaks nothing`);
    record[fault.name] = fault;
  }
  return record;
}

/** Every known fault by name. */
export const faults: Record<string, FaultDefinition> = index(ALL_FAULTS);

export function listFaults(): FaultDefinition[] {
  return Object.values(faults).sort((a, b) => a.name.localeCompare(b.name));
}

export function getFault(name: string): FaultDefinition | undefined {
  return Object.prototype.hasOwnProperty.call(faults, name) ? faults[name] : undefined;
}

/** One customisation applying several faults in order (the first named wraps innermost). */
export function combineFaults(definitions: ReadonlyArray<Pick<FaultDefinition, 'customize'>>): SandboxCustomize {
  return {
    tenant: async (tenant) => {
      let current = tenant;
      for (const fault of definitions) current = (await fault.customize.tenant?.(current)) ?? current;
      return current;
    },
    wrapHandler: (handler, tenant) =>
      definitions.reduce((inner, fault) => fault.customize.wrapHandler?.(inner, tenant) ?? inner, handler),
    limitFor: (limitFor, tenant) =>
      definitions.reduce((inner, fault) => fault.customize.limitFor?.(inner, tenant) ?? inner, limitFor),
    deps: (deps, tenant) => {
      let current = { ...deps };
      for (const fault of definitions) current = { ...current, ...(fault.customize.deps?.(current, tenant) ?? {}) };
      return current;
    },
  };
}
