/**
 * One root cause for what is not there (issue 48). A gateway that serves 5 of the description's 39 list
 * and search operations answers the other 34 with 404 to a valid call with a fresh token: 34 root causes
 * that are one fact. Here the root causes (root-causes.ts) whose check is an operation's acceptance (a
 * valid call, not a refusal) and whose last request got 404 or 501 are grouped by that status; two or more
 * make one group, which every reporter shows as one root cause listing the operations once. Nothing is
 * taken out of the results: report.json keeps every one, and the group names the results it stands for.
 *
 * The status is read from what the collector already has (the result's last exchange, else the status its
 * failure names), never from the suite runner.
 */
import { controlsOf } from '../requirements/controls.js';
import { resultKey } from './result-key.js';
import type { AbsentOperations, CheckResult, OperationRef, RootCause } from './types.js';

/** The answers that say "there is no such operation here": not found, and not implemented. */
export const ABSENT_STATUSES: ReadonlySet<number> = new Set([404, 501]);

/** What each absent status means, in the group's one line. */
const ABSENT_MEANING: Readonly<Record<number, string>> = {
  404: "not implemented here, or the profile's IDs do not exist there",
  501: 'the target says it does not implement them',
};

/**
 * The status an operation's valid call got, when that is what made the result fail: a per-operation
 * acceptance check (not a refusal: a refusal that gets 404 is another story) that failed, its first call of
 * the operation answered 404 or 501 (or, with no exchange kept, its failure's actual value starts so).
 */
export function absentStatus(result: CheckResult): number | undefined {
  if (result.operation === undefined || result.state !== 'failed' || controlsOf(result.id).length > 0) return undefined;
  // The operation's FIRST answered call is its valid call: a later page's 404 (a page token the target lost)
  // is a failure of paging, never a sign the operation is not there. Token requests and other paths aside.
  const operation = result.operation;
  const path = operation.sentPath ?? operation.path;
  const called = (url: string): boolean => {
    try {
      return new URL(url).pathname.endsWith(path);
    } catch {
      return false;
    }
  };
  const first = result.exchanges.find((exchange) => exchange.response !== undefined && exchange.request.method.toUpperCase() === operation.method && called(exchange.request.url));
  const answered = first?.response?.status ?? (result.exchanges.some((exchange) => exchange.response !== undefined) ? 0 : undefined);
  const status = answered ?? Number(/^\s*(\d{3})\b/.exec(result.failure?.actual ?? '')?.[1]);
  return ABSENT_STATUSES.has(status) ? status : undefined;
}

/** Path, then method: the order a reader looks an operation up in. */
const byPath = (a: OperationRef, b: OperationRef): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.method.localeCompare(b.method));

/** "34 operations of the description answer 404 to a valid call: not implemented here, or …". */
export function absentMessage(count: number, status: number): string {
  return `${count} operation${count === 1 ? ' of the description answers' : 's of the description answer'} ${status} to a valid call: ${ABSENT_MEANING[status] ?? 'not there'}`;
}

/**
 * The groups, largest first: root causes of two or more operations that answered a valid call with the same
 * 404 or 501. An operation is listed once, however many of its checks are roots.
 */
export function groupAbsentOperations(results: readonly CheckResult[], rootCauses: readonly RootCause[]): AbsentOperations[] {
  const byKey = new Map(results.map((r) => [resultKey(r), r]));
  const byStatus = new Map<number, { operations: Map<string, OperationRef>; roots: string[]; dependants: number }>();
  for (const cause of rootCauses) {
    const root = byKey.get(cause.id);
    const status = root === undefined ? undefined : absentStatus(root);
    if (root === undefined || status === undefined || root.operation === undefined) continue;
    const group = byStatus.get(status) ?? { operations: new Map<string, OperationRef>(), roots: [], dependants: 0 };
    byStatus.set(status, group);
    const name = `${root.operation.method} ${root.operation.path}`;
    if (!group.operations.has(name)) group.operations.set(name, root.operation);
    group.roots.push(cause.id);
    group.dependants += cause.dependants.length;
  }
  return [...byStatus.entries()]
    .filter(([, group]) => group.operations.size >= 2)
    .map(([status, group]) => ({ status, message: absentMessage(group.operations.size, status), operations: [...group.operations.values()].sort(byPath), roots: group.roots, dependants: group.dependants }))
    .sort((a, b) => b.operations.length - a.operations.length || a.status - b.status);
}
