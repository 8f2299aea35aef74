/**
 * Faulty variants of the reference: each breaks named requirements on purpose, so a run against it proves
 * the checks of those requirements can fail. A fault changes the sandbox only from outside, through
 * {@link SandboxCustomize}: wrapping the handler or replacing ports. The registry is filled by fault modules.
 */
import type { RequirementId } from '../requirements.js';
import type { SandboxCustomize } from '../tenant/types.js';

export interface FaultDefinition {
  /** kebab-case, as given to `--fault`. */
  name: string;
  description: string;
  /** Requirements a run against this fault must report as failed. */
  breaks: RequirementId[];
  /** Why a requirement breaks, when it is not obvious from the description. */
  explains?: Partial<Record<RequirementId, string>>;
  customize: SandboxCustomize;
}

/** Every known fault by name. */
export const faults: Record<string, FaultDefinition> = {};

export function listFaults(): FaultDefinition[] {
  return Object.values(faults).sort((a, b) => a.name.localeCompare(b.name));
}

export function getFault(name: string): FaultDefinition | undefined {
  return Object.prototype.hasOwnProperty.call(faults, name) ? faults[name] : undefined;
}

/** One customisation applying several faults in order (the first named wraps innermost). */
export function combineFaults(definitions: readonly FaultDefinition[]): SandboxCustomize {
  return {
    wrapHandler: (handler, tenant) =>
      definitions.reduce((inner, fault) => fault.customize.wrapHandler?.(inner, tenant) ?? inner, handler),
    deps: (deps, tenant) => {
      let current = { ...deps };
      for (const fault of definitions) current = { ...current, ...(fault.customize.deps?.(current, tenant) ?? {}) };
      return current;
    },
  };
}
