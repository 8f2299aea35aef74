/**
 * The shape of one faulty variant of the reference. A fault changes the sandbox only from outside, through
 * {@link SandboxCustomize}: wrapping the handler (rewriting requests or responses) or replacing ports. The
 * reference itself never asks whether it is faulty.
 */
import type { RequirementId } from '../requirements/catalogue.js';
import type { ReferenceDeps, ReferenceHandler } from '../reference/types.js';
import type { SandboxCustomize, Tenant } from '../tenant/types.js';

/**
 * The area of the service a fault belongs to: a requirement group (a suite's file name, the `group` of the
 * catalogue entries), and the name of the table file under src/faults/ that holds the fault
 * (`src/faults/<area>.ts`). The registry (all.ts) sets it from the table; tests/faults/registry.test.ts
 * checks that every table is named after a requirement group. Groups the fault list in docs and the score table.
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

/** What a fault's behaviour sees: the tenant, and the ports the reference really runs with. */
export interface FaultEnv {
  tenant: Tenant;
  /** The reference's ports as finally merged (read lazily: other faults may replace ports after this one). */
  ports(): ReferenceDeps;
}

/** How much body the server reads per request line (see SandboxCustomize.limitFor). */
export type BodyLimit = (method: string, url: string) => number;

/**
 * How a fault changes the sandbox: any of these, from outside the reference. A family helper of
 * src/faults/support/ (`hmacRule`, `jwtRule`, `webhookFault`, `paginationFault`, `acceptAssertion`, …)
 * returns one, to be spread into an entry.
 */
export interface FaultBehaviour {
  /** Changes what the service issued (credentials, secrets) before the reference and the profile see it. */
  issue?: (tenant: Tenant) => void;
  /** Ports to replace; gets the ports as they stand. */
  ports?: (deps: ReferenceDeps, env: FaultEnv) => Partial<ReferenceDeps>;
  /** Wraps the reference's handler. */
  wrap?: (handler: ReferenceHandler, env: FaultEnv) => ReferenceHandler;
  /** Changes how much body the server reads per request line. */
  limits?: (limitFor: BodyLimit, env: FaultEnv) => BodyLimit;
}

/**
 * One fault, declared once: an entry in its area's table (`src/faults/<area>.ts`, an array of these). The
 * name is written here and nowhere else; the area is the table's; nothing else registers it.
 *
 * ```ts
 * {
 *   name: 'hmac-upper-hex',
 *   description: 'Expects the HMAC digest as upper-case hex instead of base64url.',
 *   breaks: ['WH-HMAC-01', 'WH-HMAC-15'],
 *   explains: NEEDS_VALID_HMAC,
 *   ...hmacRule({ accepts: ({ signature, sign }) => signature === sign({ hex: true }).toUpperCase() }),
 * },
 * ```
 */
export interface FaultEntry extends FaultBehaviour {
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
}

/**
 * An area's faults, the one place each of them is declared: `src/faults/<area>.ts` exports one as `FAULTS`, and
 * the area's row in all.ts registers the whole table. Helpers an entry needs stand above the table.
 */
export type FaultTable = readonly FaultEntry[];

/** A registered fault: its declaration, the area its table names, and its behaviour as a sandbox customisation. */
export interface FaultDefinition {
  name: string;
  area: FaultArea;
  description: string;
  breaks: RequirementId[];
  explains?: Partial<Record<RequirementId, string>>;
  customize: SandboxCustomize;
}
