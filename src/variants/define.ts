/**
 * defineVariant: a variant is built with the fault builders of src/faults/support (defineFault, webhookFault,
 * jwtRule, paginationFault, …), whose `breaks` here means the SHOULD checks the reading warns on, and then
 * declared with the stacks it stands for. Checks the declaration: a variant may warn only on SHOULD checks
 * (a MUST it fails would make it a fault, an INFO check never fails) and explains nothing away.
 */
import type { FaultArea, FaultDeclaration } from '../faults/types.js';
import { isRequirementId, requirement, type RequirementId } from '../requirements/catalogue.js';
import type { VariantDefinition } from './types.js';

export interface Reading {
  /**
   * The requirement group the reading belongs to (the variants folder is one for all groups, so unlike a
   * fault's, a variant's area is said here, next to its stacks).
   */
  area: FaultArea;
  /** The mainstream stack(s) that take the reading by default. */
  stacks: string;
  /** Checks whose answer the reading changes and that still pass. */
  touches?: RequirementId[];
}

export function defineVariant(reading: Reading, change: FaultDeclaration): VariantDefinition {
  const { name } = change;
  if (change.explains && Object.keys(change.explains).length > 0) throw new Error(`variant ${name}: a variant fails exactly what it warns on; it explains nothing`);
  for (const id of change.breaks) {
    if (!isRequirementId(id) || requirement(id).level !== 'SHOULD') throw new Error(`variant ${name}: ${id} is not a SHOULD requirement`);
  }
  const touches = reading.touches ?? [];
  for (const id of touches) if (!isRequirementId(id)) throw new Error(`variant ${name}: ${id} is not in the catalogue`);
  if (reading.stacks.trim() === '') throw new Error(`variant ${name} names no stack`);
  return { name, area: reading.area, description: change.description, stacks: reading.stacks, warns: change.breaks, touches, customize: change.customize };
}
