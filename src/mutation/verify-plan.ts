/**
 * What each self-verification run checks. A fault runs only the suite groups its declarations touch (the
 * groups of its `breaks` and `explains`), plus a smoke selection of core checks, so an unexplained failure
 * anywhere in those groups or on the main paths is seen, without paying for the whole catalogue per fault.
 */
import { allRequirements, type Requirement, type RequirementId } from '../requirements/catalogue.js';
import type { FaultDefinition } from '../faults/types.js';

/**
 * Core checks every fault run includes: a token and an authenticated API call (OWN-01), a valid webhook
 * (WH-01). A fault that breaks more than it declares on the main paths shows here.
 */
export const SMOKE_IDS: readonly RequirementId[] = ['OWN-01', 'WH-01'];

export interface RunPlan {
  /** `reference` for the clean run, else the fault's name. */
  name: string;
  fault?: FaultDefinition;
  /** Requirement IDs selected (`--only`); empty means the whole catalogue. */
  ids: RequirementId[];
  groups: string[];
  /** Rough relative cost, for scheduling the longest runs first. */
  weight: number;
}

/** IDs a fault declares: its breaks and the keys of its explains. */
export function declaredIds(fault: FaultDefinition): RequirementId[] {
  return [...new Set([...fault.breaks, ...(Object.keys(fault.explains ?? {}) as RequirementId[])])];
}

// Relative cost of a group's run beyond the per-run overhead (seconds against the reference, rounded):
// JWT checks fetch JWKS and sign with RSA, runs checks wait for runs to show, the clock phase restarts vitest.
const GROUP_WEIGHT: Record<string, number> = {
  credentials: 0.1,
  tokens: 6,
  'api-auth': 4,
  owners: 0.5,
  pagination: 2,
  'webhook-common': 1,
  'webhook-hmac': 0.5,
  'webhook-jwt': 11,
  idempotency: 5,
  automations: 5,
};
const RUN_OVERHEAD = 5;

function weightOf(groups: readonly string[]): number {
  return RUN_OVERHEAD + groups.reduce((sum, group) => sum + (GROUP_WEIGHT[group] ?? 2), 0);
}

export function planFault(fault: FaultDefinition, catalogue: readonly Requirement[] = allRequirements()): RunPlan {
  const byId = new Map(catalogue.map((req) => [req.id, req]));
  for (const id of declaredIds(fault)) if (!byId.has(id)) throw new Error(`fault ${fault.name} names ${id}, which is not in the catalogue`);
  const groups = new Set<string>();
  for (const id of declaredIds(fault)) {
    // A smoke check named in `explains` runs anyway; it does not pull its whole group in.
    if (SMOKE_IDS.includes(id) && !fault.breaks.includes(id)) continue;
    groups.add(byId.get(id)!.group);
  }
  const ids = catalogue.filter((req) => groups.has(req.group)).map((req) => req.id);
  for (const id of SMOKE_IDS) if (!ids.includes(id)) ids.push(id);
  const sorted = [...groups].sort();
  return { name: fault.name, fault, ids, groups: sorted, weight: weightOf(sorted) };
}

export function planReference(catalogue: readonly Requirement[] = allRequirements()): RunPlan {
  const groups = [...new Set(catalogue.map((req) => req.group))].sort();
  return { name: 'reference', ids: [], groups, weight: weightOf(groups) };
}
