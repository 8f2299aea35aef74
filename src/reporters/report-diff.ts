/** What changed between two json reports: the core of `access-conformance diff A.json B.json`. */
import type { CheckState } from '../engine/types.js';
import type { JsonCheckResult, JsonReport } from './json-report.js';

export interface DiffEntry {
  id: string;
  level: string;
  text: string;
  before?: CheckState;
  after?: CheckState;
  /** The failure (or error, or skip reason) on the side that has one. */
  detail?: string;
}

export interface ReportDiff {
  startedFailing: DiffEntry[];
  startedPassing: DiffEntry[];
  /** In B, not in A. */
  appeared: DiffEntry[];
  /** In A, not in B. */
  disappeared: DiffEntry[];
  /** Other state changes (skipped ↔ errored, passed → skipped, ...). */
  otherChanges: DiffEntry[];
  unchanged: number;
}

const BAD: ReadonlySet<CheckState> = new Set(['failed', 'errored', 'blocked']);

function detail(result: JsonCheckResult): string | undefined {
  return result.failure?.message ?? (result.harnessError ? `error[${result.harnessError.code}]: ${result.harnessError.message}` : result.reason);
}

function entry(before: JsonCheckResult | undefined, after: JsonCheckResult | undefined): DiffEntry {
  const ref = (after ?? before)!;
  const note = after ? detail(after) : before ? detail(before) : undefined;
  return {
    id: ref.id,
    level: ref.level,
    text: ref.text,
    ...(before ? { before: before.state } : {}),
    ...(after ? { after: after.state } : {}),
    ...(note ? { detail: note } : {}),
  };
}

export function diffReports(a: JsonReport, b: JsonReport): ReportDiff {
  const before = new Map(a.results.map((r) => [r.id, r]));
  const after = new Map(b.results.map((r) => [r.id, r]));
  const diff: ReportDiff = { startedFailing: [], startedPassing: [], appeared: [], disappeared: [], otherChanges: [], unchanged: 0 };
  for (const [id, next] of after) {
    const prev = before.get(id);
    if (!prev) {
      diff.appeared.push(entry(undefined, next));
    } else if (prev.state === next.state) {
      diff.unchanged += 1;
    } else if (BAD.has(next.state) && !BAD.has(prev.state)) {
      diff.startedFailing.push(entry(prev, next));
    } else if (next.state === 'passed' && BAD.has(prev.state)) {
      diff.startedPassing.push(entry(prev, next));
    } else {
      diff.otherChanges.push(entry(prev, next));
    }
  }
  for (const [id, prev] of before) if (!after.has(id)) diff.disappeared.push(entry(prev, undefined));
  return diff;
}

/**
 * What `diff --fail-on regression` fails on: checks that passed (or were skipped) in A and fail or error
 * in B, and checks new in B that fail or error there.
 */
export function regressions(diff: ReportDiff): DiffEntry[] {
  return [...diff.startedFailing, ...diff.appeared.filter((entry) => entry.after !== undefined && BAD.has(entry.after))];
}
