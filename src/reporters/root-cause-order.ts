/**
 * Root cause first, for every reporter: the failures of a run grouped under the check they follow from
 * (src/engine/root-causes.ts), and the one-answer notice (src/engine/uniform-answer.ts). Reporters list the
 * root causes where they used to list every failure, each with "N checks depend on it" and its dependants
 * one click (a collapsed block) or one indented list away; a dependant is never listed as a failure of its
 * own. The wording is here once so that the console, Markdown, HTML, JUnit and the annotations agree.
 */
import { pulledInPhrase } from '../engine/controls.js';
import { findRootCauses } from '../engine/root-causes.js';
import { resultKey } from '../engine/result-key.js';
import type { AbsentOperations, CheckResult, RootCause, RunScope, RunSummary } from '../engine/types.js';
import { operationLabel, operationName } from '../engine/result-key.js';
import { shortText } from '../escape.js';
import { groupFailures, type DisplayState, type FailureGroup } from './format.js';

export interface CauseView {
  causes: RootCause[];
  /** Dependant ID → its root cause's ID. */
  rootOf: Map<string, string>;
  byId: Map<string, CheckResult>;
}

export function causeView(summary: Pick<RunSummary, 'results' | 'rootCauses'>): CauseView {
  const causes = summary.rootCauses ?? findRootCauses(summary.results);
  const rootOf = new Map<string, string>();
  for (const cause of causes) for (const id of cause.dependants) rootOf.set(id, cause.id);
  return { causes, rootOf, byId: new Map(summary.results.map((r) => [resultKey(r), r])) };
}

/** "12 checks depend on it". */
export function dependsOnIt(count: number): string {
  return `${count} check${count === 1 ? ' depends' : 's depend'} on it`;
}

/**
 * "the target accepts instead: WH-HMAC-08 (The key is the secret string's UTF-8 bytes…)": the refusal
 * checks the target failed by accepting while it refused the valid request, shown beside the root cause.
 */
export function acceptedInsteadLine(view: CauseView, id: string): string | undefined {
  const accepted = (view.causes.find((c) => c.id === id)?.acceptedInstead ?? []).map((dep) => view.byId.get(dep)).filter((r): r is CheckResult => r !== undefined);
  if (accepted.length === 0) return undefined;
  return `the target accepts instead what it must refuse: ${accepted.slice(0, 5).map((r) => `${resultKey(r)} (${shortText(r.text, 160)})`).join('; ')}${accepted.length > 5 ? ` and ${accepted.length - 5} more` : ''}`;
}

/** The dependants of a root cause as results, failing ones first. */
export function dependantsOf(view: CauseView, id: string): CheckResult[] {
  const cause = view.causes.find((c) => c.id === id);
  return (cause?.dependants ?? []).map((dep) => view.byId.get(dep)).filter((r): r is CheckResult => r !== undefined);
}

/**
 * "pulled in as the positive control of WH-HMAC-08" for a check --only/--skip did not name, else
 * undefined: every reporter names such a check so, beside its ID.
 */
export function pulledInLine(result: Pick<CheckResult, 'pulledIn'>): string | undefined {
  return result.pulledIn ? pulledInPhrase(result.pulledIn) : undefined;
}

/** One line of a dependant: its ID, level, state and why ("blocked: control TOK-01 failed"). */
export function dependantLine(result: CheckResult): string {
  const pulled = pulledInLine(result);
  const head = `${resultKey(result)} [${result.level}]${pulled ? ` (${pulled})` : ''}`;
  if (result.state === 'blocked' && result.blockedBy) {
    const by = result.blockedBy;
    return by.ownRequest
      ? `${head} blocked: its own control request was not accepted (${shortText(by.message, 200)})`
      : `${head} blocked: its positive control ${by.control} ${by.state}`;
  }
  const why = result.failure?.message ?? (result.harnessError ? `error[${result.harnessError.code}]: ${result.harnessError.message}` : result.text);
  return `${head} ${result.state}: ${shortText(why, 200)}`;
}

/** Why a blocked root did not pass, one line. */
export function blockedReason(result: CheckResult): string {
  const by = result.blockedBy;
  if (!by) return 'blocked';
  return by.ownRequest
    ? `blocked: its own control request (the accepted form of the same request) was not accepted: ${by.message}`
    : `blocked: its positive control ${by.control} ${by.state} (${by.message}), so the refusal proves nothing (ruling 30)`;
}

/** Results that are not the dependant of another: what a report lists on its own. */
export function withoutDependants(results: readonly CheckResult[], view: CauseView): CheckResult[] {
  return results.filter((r) => !view.rootOf.has(resultKey(r)));
}

/** A failure group (format.ts) of root causes, with every dependant of its checks. */
export interface CauseGroup extends FailureGroup {
  dependants: CheckResult[];
}

/**
 * groupFailures over the root causes only (less those an absent-operations group stands for, `grouped`), in root-cause order (the engine's: MUST first, failed first,
 * more dependants first), each group carrying its dependants.
 */
export function groupRootCauses(summary: Pick<RunSummary, 'results' | 'rootCauses'>, strict: boolean, states: readonly DisplayState[], view = causeView(summary), grouped: ReadonlySet<string> = new Set()): CauseGroup[] {
  const rank = new Map(view.causes.map((cause, i) => [cause.id, i]));
  const roots = withoutDependants(summary.results, view).filter((r) => !grouped.has(resultKey(r)));
  const groups = groupFailures(roots, strict, states).map((group) => ({
    ...group,
    dependants: group.results.flatMap((r) => dependantsOf(view, resultKey(r))),
  }));
  const first = (group: CauseGroup): number => Math.min(...group.results.map((r) => rank.get(resultKey(r)) ?? Number.MAX_SAFE_INTEGER));
  const stateRank = (group: CauseGroup): number => states.indexOf(group.state);
  return groups.sort((a, b) => stateRank(a) - stateRank(b) || first(a) - first(b));
}

/** The one-answer notice as lines (empty when the answers varied). */
export function uniformAnswerLines(summary: Pick<RunSummary, 'uniformAnswer'>): string[] {
  const answer = summary.uniformAnswer;
  if (!answer) return [];
  return [`ONE ANSWER FOR EVERYTHING: ${answer.message}.`, `what to check: ${answer.hint}`];
}

/**
 * Results in reading order with root causes first: the roots (engine order), then their dependants (under
 * each root in turn), then everything else in the order given.
 */
export function rootCausesFirst(ordered: readonly CheckResult[], view: CauseView): CheckResult[] {
  const rank = new Map(view.causes.map((cause, i) => [cause.id, i]));
  const roots = ordered.filter((r) => rank.has(resultKey(r))).sort((a, b) => rank.get(resultKey(a))! - rank.get(resultKey(b))!);
  const dependants = view.causes.flatMap((cause) => dependantsOf(view, cause.id));
  const rest = ordered.filter((r) => !rank.has(resultKey(r)) && !view.rootOf.has(resultKey(r)));
  return [...roots, ...dependants, ...rest];
}

/**
 * Operations that answer a valid call with the same 404 or 501 (engine/absent-operations.ts): each group is
 * one root cause in every reporter, the operations listed once, in place of one root cause per operation.
 */
export interface AbsentView {
  groups: AbsentOperations[];
  /** Root-cause keys some group stands for: not listed on their own. */
  grouped: Set<string>;
  /** `METHOD path` of every grouped operation: their skips are said once, under the group. */
  operations: Set<string>;
}

export function absentView(summary: Pick<RunSummary, 'absentOperations'>): AbsentView {
  const groups = summary.absentOperations ?? [];
  return {
    groups,
    grouped: new Set(groups.flatMap((group) => group.roots)),
    operations: new Set(groups.flatMap((group) => group.operations.map((op) => operationName(op)))),
  };
}

/** The requirement IDs a group's roots are (`OPS-18 [MUST]`), for the line under its title. */
export function absentRootIds(group: AbsentOperations, view: CauseView): string {
  const ids = new Map<string, string>();
  for (const key of group.roots) {
    const result = view.byId.get(key);
    if (result) ids.set(result.id, `${result.id} [${result.level}]`);
  }
  return [...ids.values()].join(', ');
}

/**
 * The lines under a group's title: what failed, how many checks follow, and what to do; then each operation
 * once (its label, the path sent).
 */
export function absentDetailLines(group: AbsentOperations, view: CauseView): { about: string[]; operations: string[] } {
  return {
    about: [
      `the valid first call of each (${absentRootIds(group, view)}) got ${group.status}; ${group.dependants} other check${group.dependants === 1 ? ' depends' : 's depend'} on them, every one in the json report under its operation`,
      `a partial implementation: run --partial, or declare the profile's "scope" (docs/checking.md, "Certifying a partial implementation")`,
    ],
    operations: group.operations.map((op) => operationLabel(op)),
  };
}

/** A result of an operation some group lists (its skips are said once, under the group). */
export function ofAbsentOperation(result: CheckResult, absent: AbsentView): boolean {
  return result.operation !== undefined && absent.operations.has(operationName(result.operation));
}

/** "5 of 39 operations implemented and checked; 34 not implemented (run --partial)": the scope in one line. */
export function scopeLine(scope: RunScope): string {
  return scope.summary;
}

/** One not-implemented operation: its label and why (the status its valid call got, or the profile's scope). */
export function notImplementedLine(entry: RunScope['notImplemented'][number]): string {
  const why = entry.source === 'profile' ? 'left out by the profile\'s "scope", never called' : `answered ${entry.answered ?? '404'} to a valid call (run --partial)`;
  return `${operationLabel(entry.operation)}: ${why}`;
}
