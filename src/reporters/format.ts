/** Text helpers shared by the reporters: exchanges, durations, counts, grouping. */
import type { RecordedExchange } from '../client/types.js';
import type { CheckResult, GroupCounts, RunSummary } from '../engine/types.js';

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** "24 passed, 1 failed, 2 skipped" (+ ", 1 errored" when any). */
export function formatCounts(counts: GroupCounts): string {
  const parts = [`${counts.passed} passed`, `${counts.failed} failed`, `${counts.skipped} skipped`];
  if (counts.errored > 0) parts.push(`${counts.errored} errored`);
  return parts.join(', ');
}

/**
 * The line CI reads, always last on the console: `N passed, N failed, N skipped`. Errored checks did not
 * pass and were not skipped: they count as failed here (the verdict line above tells them apart).
 */
export function finalLine(summary: RunSummary): string {
  const { passed, failed, skipped, errored } = summary.totals;
  return `${passed} passed, ${failed + errored} failed, ${skipped} skipped`;
}

function headerLines(headers: Record<string, string>, indent: string): string[] {
  return Object.entries(headers).map(([name, value]) => `${indent}${name}: ${value}`);
}

function bodyLines(body: string | undefined, bytes: number, truncated: boolean, indent: string): string[] {
  if (body === undefined || body === '') return bytes > 0 ? [`${indent}(${bytes} bytes, not recorded)`] : [];
  const lines = body.split('\n').map((line) => `${indent}${line}`);
  if (truncated) lines.push(`${indent}… (${bytes} bytes in all)`);
  return lines;
}

/** One exchange as text: request line, headers, body; then the answer or the transport error. */
export function formatExchange(exchange: RecordedExchange, indent = '    '): string[] {
  const lines: string[] = [];
  const label = exchange.label ? ` (${exchange.label})` : '';
  lines.push(`${indent}→ ${exchange.request.method} ${exchange.request.url}${label}`);
  lines.push(...headerLines(exchange.request.headers, `${indent}  `));
  lines.push(...bodyLines(exchange.request.body, exchange.request.bodyBytes, exchange.request.bodyTruncated, `${indent}  `));
  if (exchange.response) {
    lines.push(`${indent}← ${exchange.response.status} after ${formatDuration(exchange.durationMs)}`);
    lines.push(...headerLines(exchange.response.headers, `${indent}  `));
    lines.push(...bodyLines(exchange.response.body, exchange.response.bodyBytes, exchange.response.bodyTruncated, `${indent}  `));
  } else if (exchange.error) {
    lines.push(`${indent}✗ ${exchange.error.code}: ${exchange.error.message}`);
  }
  return lines;
}

/** Skipped checks grouped by reason, most frequent first. */
export function skipsByReason(results: readonly CheckResult[]): Array<{ reason: string; ids: string[] }> {
  const groups = new Map<string, string[]>();
  for (const result of results) {
    if (result.state !== 'skipped') continue;
    const reason = result.reason ?? 'no reason given';
    groups.set(reason, [...(groups.get(reason) ?? []), result.id]);
  }
  return [...groups.entries()].map(([reason, ids]) => ({ reason, ids })).sort((a, b) => b.ids.length - a.ids.length || a.reason.localeCompare(b.reason));
}

/** Groups in order of first appearance in the results, with their checks. */
export function resultsByGroup(results: readonly CheckResult[]): Map<string, CheckResult[]> {
  const groups = new Map<string, CheckResult[]>();
  for (const result of results) groups.set(result.group, [...(groups.get(result.group) ?? []), result]);
  return groups;
}

/** Failure kind shown to people: the level and whether it counts. */
export function failureKind(result: CheckResult, strict: boolean): 'failure' | 'warning' | 'observation' | 'expected' {
  if (result.expectedFailure) return 'expected';
  if (result.level === 'MUST') return 'failure';
  if (result.level === 'SHOULD') return strict ? 'failure' : 'warning';
  return 'observation';
}
