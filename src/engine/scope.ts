/**
 * A declared scope (issue 48): most implementations of a large API are partial, and a certificate of a subset
 * must never read as one of the whole. Two ways to declare it, one rule for each operation of the plan:
 *
 * - the profile's `"scope"` (reproducible, for CI): `{"implements": [...]}` names the operations served, and
 *   every other operation of the plan is not implemented and never called; `{"excludes": [...]}` names the
 *   ones not served, which are never called, and the others are checked. An operation the scope declares
 *   implemented is checked as always: a 404 to its valid call is a failure, not a skip.
 * - `run --partial` (found in the run): an operation the scope does not name whose valid first call got 404
 *   or 501 (absent-operations.ts), and none of whose checks passed, is not implemented: its results are
 *   `skipped` saying so, neither passed nor failed. Every other operation is checked as today.
 *
 * The scope then goes into every report (`RunSummary.scope`), the verdict's reason ("conformant for 5 of
 * 39 operations; 34 not implemented"), the attestation, and a `--partial` run prints the profile snippet
 * that pins what it found (`scopeSnippet`).
 */
import { HarnessError } from '../errors.js';
import { operationName, operationRef, type OperationPlan, type PlannedOperation } from '../openapi/index.js';
import type { ProfileScope } from '../profile/types.js';
import { findRootCauses } from './root-causes.js';
import { absentStatus } from './absent-operations.js';
import { resultKey } from './result-key.js';
import type { CheckResult, OperationRef, RunScope, ScopeSource, Verdict } from './types.js';

/** The profile's scope matched against the run's plan: what it declares, and the plan without what it leaves out. */
export interface DeclaredScope {
  kind: 'implements' | 'excludes';
  entries: string[];
  /** `METHOD path` of every operation an entry names. */
  named: Set<string>;
  /** The called operations the scope leaves out: moved to the plan's `notCalled`, never sent. */
  left: OperationRef[];
  /** The plan the run uses. */
  plan: OperationPlan;
}

/** Why an operation the profile's scope leaves out is not called (run --plan, the header, the reports). */
const LEFT_OUT_REASON = 'not implemented, by the profile\'s "scope": never called';

/** `get /x` → `GET /x`; an operation ID as written. */
function normalise(entry: string): string {
  return entry.trim().replace(/^([a-z]+) (?=\/)/i, (method: string) => method.toUpperCase());
}

/** The operations of a plan an entry names: by `METHOD path`, or by operation ID. */
function matches(entry: string, ops: ReadonlyArray<{ method: string; path: string; operationId?: string | undefined }>): Array<{ method: string; path: string }> {
  return ops.filter((op) => entry === operationName(op) || (op.operationId !== undefined && entry === op.operationId));
}

/**
 * The profile's `"scope"` checked against the run's operations and applied to its plan. An entry that names
 * no operation of the run, or an operation ID two operations share, is a PROFILE_INVALID naming the entry
 * (`scope.implements[3]`): a typo must not silently narrow a certificate. Undefined when there is no scope.
 */
export function declareScope(plan: OperationPlan | undefined, scope: ProfileScope | undefined): DeclaredScope | undefined {
  if (scope === undefined) return undefined;
  const kind = scope.implements !== undefined ? 'implements' : 'excludes';
  const entries = (scope.implements ?? scope.excludes ?? []).map(normalise);
  if (plan === undefined) {
    throw new HarnessError('PROFILE_INVALID', `the profile declares a "scope", but the run has no operations: it names no OpenAPI description ("openapi", or run --openapi) and no "operations"`, {
      field: 'scope',
      hint: 'give the description the scope is a part of: run --openapi FILE, or "openapi" in the profile',
    });
  }
  const all = [...plan.called, ...plan.notCalled];
  const named = new Set<string>();
  entries.forEach((entry, index) => {
    const field = `scope.${kind}[${index}]`;
    const found = matches(entry, all);
    if (found.length === 0) {
      throw new HarnessError('PROFILE_INVALID', `${field} ${JSON.stringify(entry)} names no operation of the run's description (neither "METHOD /path" nor an operation ID)`, {
        field,
        hint: 'name it as `list --openapi` prints it, e.g. "GET /api/v1/apps", or by its operation ID; `run --partial` prints a scope that matches',
      });
    }
    if (found.length > 1) {
      throw new HarnessError('PROFILE_INVALID', `${field} ${JSON.stringify(entry)} names ${found.length} operations (${found.map(operationName).join(', ')})`, {
        field,
        hint: 'name the one you mean as "METHOD /path"',
      });
    }
    named.add(operationName(found[0]!));
  });
  const out = (op: PlannedOperation): boolean => (kind === 'implements' ? !named.has(operationName(op)) : named.has(operationName(op)));
  const leftOut = plan.called.filter(out);
  const next: OperationPlan = {
    ...plan,
    called: plan.called.filter((op) => !out(op)),
    notCalled: [...plan.notCalled, ...leftOut.map((op) => ({ ...op, called: false, reason: LEFT_OUT_REASON }))],
  };
  return { kind, entries, named, left: leftOut.map((op) => operationRef({ method: op.method, path: op.path, operationId: op.operationId })), plan: next };
}

export interface ScopeInput {
  /** `run --partial`. */
  partial: boolean;
  declared?: DeclaredScope;
  /** The operations the run called (after the profile's scope), plan order; those without a result are left out. */
  called: readonly OperationRef[];
}

/**
 * The results with the scope applied (an operation `--partial` finds not implemented: each of its results
 * skipped, saying so), and the scope every report carries; no scope when neither `--partial` nor a profile
 * scope was given, or the run had no operations.
 */
export function applyScope(results: readonly CheckResult[], input: ScopeInput): { results: CheckResult[]; scope?: RunScope } {
  if (!input.partial && input.declared === undefined) return { results: [...results] };
  // Only the operations the run has results for were checked (--only may keep a few of the plan's).
  const withResults = new Set(results.filter((r) => r.operation).map((r) => operationName(r.operation!)));
  const called = input.called.filter((op) => withResults.has(operationName(op)));
  const missing = input.partial ? missingOperations(results, input.declared?.named ?? new Set()) : new Map<string, number>();
  const scoped = results.map((result) => {
    const answered = result.operation ? missing.get(operationName(result.operation)) : undefined;
    if (answered === undefined) return result;
    const { failure: _failure, blockedBy: _blockedBy, harnessError: _harnessError, ...rest } = result;
    return {
      ...rest,
      state: 'skipped' as const,
      reason: notImplementedReason(answered),
      notImplemented: { source: '--partial' as const, answered },
    };
  });
  // --partial that finds every operation there changes nothing: the run certifies the whole, as without it.
  if (input.declared === undefined && missing.size === 0) return { results: scoped };
  const found = called.filter((op) => missing.has(operationName(op)));
  const sources: ScopeSource[] = [...(input.declared ? ['profile' as const] : []), ...(input.partial ? ['--partial' as const] : [])];
  const notImplemented = (input.declared?.left.length ?? 0) + found.length;
  const operations = called.length + (input.declared?.left.length ?? 0);
  const scope: RunScope = {
    summary: `${operations - notImplemented} of ${operations} operations implemented and checked; ${notImplemented} not implemented (${scopeSources({ sources })})`,
    sources,
    ...(input.declared ? { declared: { kind: input.declared.kind, entries: input.declared.entries } } : {}),
    operations,
    implemented: called.filter((op) => !missing.has(operationName(op))),
    notImplemented: [
      ...(input.declared?.left ?? []).map((operation) => ({ operation, source: 'profile' as const })),
      ...found.map((operation) => ({ operation, source: '--partial' as const, answered: missing.get(operationName(operation))! })),
    ],
  };
  return { results: scoped, scope };
}

/**
 * `METHOD path` → status of each operation `--partial` counts as not implemented: a root cause of it is an
 * acceptance whose valid call got 404 or 501, none of its checks passed, and the profile's scope does not
 * name it (a declared operation that answers 404 is a failure).
 */
function missingOperations(results: readonly CheckResult[], named: ReadonlySet<string>): Map<string, number> {
  const passed = new Set(results.filter((r) => r.operation && r.state === 'passed').map((r) => operationName(r.operation!)));
  const byKey = new Map(results.map((r) => [resultKey(r), r]));
  const missing = new Map<string, number>();
  for (const cause of findRootCauses(results)) {
    const root = byKey.get(cause.id);
    const status = root ? absentStatus(root) : undefined;
    if (root?.operation === undefined || status === undefined) continue;
    const name = operationName(root.operation);
    if (!passed.has(name) && !named.has(name) && !missing.has(name)) missing.set(name, status);
  }
  return missing;
}

/** A not-implemented result's skip reason: one per status, so every report lists them on one line. */
export function notImplementedReason(answered: number): string {
  return `not implemented (run --partial): its operation answered ${answered} to a valid call`;
}

/** "conformant for 5 of 39 operations; 34 not implemented (run --partial)". */
export function scopePhrase(scope: RunScope): string {
  return `${scope.implemented.length} of ${scope.operations} operations; ${scope.notImplemented.length} not implemented (${scopeSources(scope)})`;
}

/** "run --partial", "the profile's \"scope\"", or both: what declared the scope, as every report says it. */
export function scopeSources(scope: Pick<RunScope, 'sources'>): string {
  return scope.sources.map((source) => (source === 'profile' ? 'the profile\'s "scope"' : 'run --partial')).join(' and ');
}

/**
 * The verdict with the scope in its reason: a conformant run says for how many operations it is, so a
 * subset is never read as the whole; any other verdict keeps its reason and names the scope after it.
 */
export function scopedVerdict(verdict: Verdict, scope: RunScope | undefined): Verdict {
  if (scope === undefined) return verdict;
  if (verdict.status === 'conformant') return { ...verdict, reason: `conformant for ${scopePhrase(scope)}; ${verdict.reason}` };
  return { ...verdict, reason: `${verdict.reason}; scope: ${scopePhrase(scope)}` };
}

/**
 * The profile snippet that pins what a `--partial` run found: `"scope": {"implements": [...]}` with every
 * operation it checked as implemented, by operation ID when the description gives one, else `METHOD
 * path`. Valid JSON whatever the description's names hold: every character outside printable ASCII is a
 * `\u` escape, so a terminal shows it as text and a JSON parser reads the name back exactly.
 */
export function scopeSnippet(scope: RunScope): string {
  const ids = scope.implemented.map((op) => op.operationId);
  const unique = (id: string | undefined): id is string => id !== undefined && ids.filter((other) => other === id).length === 1;
  const entries = scope.implemented.map((op) => (unique(op.operationId) ? op.operationId : operationName(op)));
  const json = JSON.stringify({ scope: { implements: entries } }, null, 2);
  return json.replace(/[^\x20-\x7e\n]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
