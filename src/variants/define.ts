/**
 * A variant's table and its check. A variant is declared once, as an entry of `READINGS` (readings.ts): its
 * name, the reading it takes, its area, the stacks that take it, the SHOULD checks it warns on, and its
 * behaviour, built with the fault family helpers of src/faults/support (`webhookFault`, `jwtRule`,
 * `paginationFault`, …) or written out (`wrap`, `ports`). `variantOf` checks the declaration: a variant may
 * warn only on SHOULD checks (a MUST it fails would make it a fault, an INFO check never fails).
 */
import { customizeOf } from '../faults/support/define.js';
import type { FaultArea, FaultBehaviour } from '../faults/types.js';
import { isRequirementId, requirement, type RequirementId } from '../requirements/catalogue.js';
import type { VariantDefinition } from './types.js';

/** One legitimate variant, declared once: its name here and nowhere else but the stacks that hold it. */
export interface VariantEntry<Name extends string = string> extends FaultBehaviour {
  /** kebab-case, as given to `npm run fault --` and `run --fault`. */
  name: Name;
  /** One sentence: the reading the variant takes. */
  description: string;
  /** The requirement group the reading belongs to (the area of the faults it mirrors). */
  area: FaultArea;
  /** The mainstream stack(s) that take the reading by default, named. */
  stacks: string;
  /** Checks whose answer the reading changes and that still pass. */
  touches?: RequirementId[];
  /** SHOULD checks the reading fails: warnings in a default run, failures with --strict. */
  warns: RequirementId[];
}

/** The variants' table, typed so that each name is a literal: stacks.ts names them by {@link VariantName}. */
export function readingTable<const Name extends string>(entries: ReadonlyArray<VariantEntry<Name>>): ReadonlyArray<VariantEntry<Name>> {
  return entries;
}

export function variantOf({ name, description, area, stacks, touches = [], warns, ...behaviour }: VariantEntry): VariantDefinition {
  for (const id of warns) {
    if (!isRequirementId(id) || requirement(id).level !== 'SHOULD') throw new Error(`variant ${name}: ${id} is not a SHOULD requirement`);
  }
  for (const id of touches) if (!isRequirementId(id)) throw new Error(`variant ${name}: ${id} is not in the catalogue`);
  if (stacks.trim() === '') throw new Error(`variant ${name} names no stack`);
  return { name, area, description, stacks, warns, touches, customize: customizeOf(name, behaviour) };
}
