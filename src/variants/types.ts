/**
 * The shape of one legitimate variant of the reference: the mirror image of a fault. A fault breaks a rule
 * on purpose and proves a check can fail; a variant takes one reading the spec leaves open, the one a named
 * mainstream stack takes by default, and proves the checks fail only what the spec forbids: it passes the
 * default run and, under --strict, fails exactly the SHOULD checks it declares.
 */
import type { FaultArea } from '../faults/types.js';
import type { RequirementId } from '../requirements/catalogue.js';
import type { SandboxCustomize } from '../tenant/types.js';

export interface VariantDefinition {
  /** kebab-case, as given to `npm run fault --` and `run --fault`. */
  name: string;
  area: FaultArea;
  /** One sentence: the reading the variant takes. */
  description: string;
  /** The mainstream stack(s) that take this reading by default, named. */
  stacks: string;
  /** SHOULD checks the reading fails: warnings in a default run, failures with --strict. */
  warns: RequirementId[];
  /** Checks whose answer the reading changes and that still pass (INFO records, a MUST that allows both). */
  touches: RequirementId[];
  customize: SandboxCustomize;
}

/** A mainstream stack: the variants that together stand for its default behaviour where the spec is open. */
export interface StackDefinition<VariantName extends string = string> {
  /** kebab-case; runs as one combined variant. */
  name: string;
  /** e.g. "Go net/http + encoding/json". */
  title: string;
  /** Variant names, innermost first (the last wraps the others: the stack's header parsing comes first). */
  variants: VariantName[];
}
