/**
 * The shape of one faulty variant of the reference. A fault changes the sandbox only from outside, through
 * {@link SandboxCustomize}: wrapping the handler (rewriting requests or responses) or replacing ports. The
 * reference itself never asks whether it is faulty.
 */
import type { RequirementId } from '../requirements/catalogue.js';
import type { SandboxCustomize } from '../tenant/types.js';

/**
 * The area of the service a fault belongs to: a requirement group (a suite's file name, the `group` of the
 * catalogue entries), and the name of the folder under src/faults/ that holds the fault. The registry
 * (all.ts) sets it from the folder; tests/faults/registry.test.ts checks that folder and area agree. Groups
 * the fault list in docs and the score table.
 */
export type FaultArea =
  | 'credentials'
  | 'tokens'
  | 'api-auth'
  | 'owners'
  | 'operations'
  | 'pagination'
  | 'webhook-common'
  | 'webhook-hmac'
  | 'webhook-jwt'
  | 'idempotency'
  | 'automations'
  | 'description';

/** What a fault file declares (defineFault): everything but its area, which is its folder's. */
export interface FaultDeclaration {
  /** kebab-case, as given to `--fault`. */
  name: string;
  /** One sentence: what the faulty service does wrong. */
  description: string;
  /** Requirements a run against this fault must report as failed: the rules the defect itself violates. */
  breaks: RequirementId[];
  /**
   * Every other check the fault also makes fail (a precondition it takes away, a second rule the same
   * defect touches), each with the reason. Self-verification requires these to fail too: a stale
   * explanation is as wrong as a missing one.
   */
  explains?: Partial<Record<RequirementId, string>>;
  customize: SandboxCustomize;
}

/** A registered fault: its declaration and the area its folder names. */
export interface FaultDefinition extends FaultDeclaration {
  area: FaultArea;
}
