/**
 * Root cause first. One defect shows as many results: a token endpoint that refuses the basic method fails
 * TOK-01, then every shape check of its response, and blocks every basic-method refusal. Each result that
 * did not pass is traced up its chain of positive controls (a refusal check) or prerequisites (an
 * acceptance check that builds on a more basic one), both in src/requirements/controls.ts, as long as the
 * check it leads to did not pass either; where the chain stops is the root cause. A check the run did not
 * include is looked through (its own control or prerequisite stands in), so a fault run that leaves out
 * AUTH-10 still groups OWN-01 under TOK-01.
 *
 * Reporters show root causes first, each with "N checks depend on it" and the dependants one click (or one
 * indented list) away; among the dependants, those that FAILED (not blocked) come first: a refusal check
 * that fails while its control fails shows the rule the target applies instead (the HMAC keyed with the
 * decoded secret accepts WH-HMAC-08's signature and refuses WH-01's).
 */
import { controlsOf, parentsOf } from '../requirements/controls.js';
import type { CheckResult, RootCause } from './types.js';
import { resultKey } from './result-key.js';
import { relatedKey } from './controls.js';

/** Results that can be a cause or a dependant: did not pass, were not skipped, and can fail the run. */
function counts(result: CheckResult | undefined): result is CheckResult {
  return result !== undefined && result.level !== 'INFO' && (result.state === 'failed' || result.state === 'errored' || result.state === 'blocked');
}

/**
 * A refusal check that failed because the target accepted the spoiled request: its failure expected a
 * refusal (a 4xx, "not 200") and got a 2xx. A failure on the way (no token to reuse) does not count.
 */
function acceptedSpoiled(result: CheckResult): boolean {
  if (result.state !== 'failed' || controlsOf(result.id).length === 0 || !result.failure) return false;
  return /\b4\d\d\b|4xx|not 200/.test(result.failure.expected) && /^2\d\d\b/.test(result.failure.actual.trim());
}

/** The not-passing check this result follows from, looking through checks outside the run. */
function parentOf(result: CheckResult, byId: ReadonlyMap<string, CheckResult>): CheckResult | undefined {
  // A blocked check names the control that blocked it: that one first.
  const named = result.blockedBy && !result.blockedBy.ownRequest ? byId.get(result.blockedBy.control) : undefined;
  if (counts(named)) return named;
  const seen = new Set<string>([resultKey(result)]);
  let frontier: string[] = parentsOf(result.id).map((id) => relatedKey(id, result.operation));
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const id of frontier) {
      if (seen.has(id)) continue;
      seen.add(id);
      const parent = byId.get(id);
      if (counts(parent)) return parent;
      // Only a check outside the run is looked through; one that passed or was skipped ends the chain.
      if (parent === undefined) next.push(...parentsOf(id));
    }
    frontier = next;
  }
  return undefined;
}

/** The immediate not-passing parent of each dependant result (the dependency edges). */
export function dependencyEdges(results: readonly CheckResult[]): Map<string, string> {
  const byId = new Map(results.map((r) => [resultKey(r), r]));
  const edges = new Map<string, string>();
  for (const result of results) {
    if (!counts(result)) continue;
    const parent = parentOf(result, byId);
    if (parent) edges.set(resultKey(result), resultKey(parent));
  }
  return edges;
}

/**
 * Root causes in reading order: MUST before SHOULD, failed before errored before blocked, more dependants
 * first, then catalogue order. Every not-passing MUST or SHOULD result is a root or the dependant of one.
 */
export function findRootCauses(results: readonly CheckResult[]): RootCause[] {
  const edges = dependencyEdges(results);
  const index = new Map(results.map((r, i) => [resultKey(r), i]));
  const rootOf = (id: string): string => {
    const seen = new Set<string>();
    let current = id;
    for (let parent = edges.get(current); parent !== undefined && !seen.has(parent); parent = edges.get(current)) {
      seen.add(current);
      current = parent;
    }
    return current;
  };
  const groups = new Map<string, CheckResult[]>();
  for (const result of results) {
    if (!counts(result)) continue;
    const root = rootOf(resultKey(result));
    if (!groups.has(root)) groups.set(root, []);
    if (root !== resultKey(result)) groups.get(root)!.push(result);
  }
  const byId = new Map(results.map((r) => [resultKey(r), r]));
  const STATE_RANK: Record<string, number> = { failed: 0, errored: 1, blocked: 2 };
  const causes = [...groups.entries()].map(([id, dependants]) => {
    const accepted = dependants.filter(acceptedSpoiled);
    const failing = dependants.filter((r) => r.state === 'failed' && !accepted.includes(r));
    const rest = dependants.filter((r) => r.state !== 'failed');
    return {
      id,
      dependants: [...accepted, ...failing, ...rest].map((r) => resultKey(r)),
      failingDependants: [...accepted, ...failing].map((r) => resultKey(r)),
      acceptedInstead: accepted.map((r) => resultKey(r)),
    };
  });
  const rank = (cause: RootCause): number[] => {
    const root = byId.get(cause.id)!;
    return [root.level === 'MUST' ? 0 : 1, STATE_RANK[root.state] ?? 3, -cause.dependants.length, index.get(cause.id) ?? 0];
  };
  return causes.sort((a, b) => {
    const ra = rank(a);
    const rb = rank(b);
    for (let i = 0; i < ra.length; i += 1) if (ra[i] !== rb[i]) return ra[i]! - rb[i]!;
    return 0;
  });
}
