/** Text helpers shared by the reporters: exchanges, durations, counts, grouping. */
import type { RecordedExchange } from '../client/types.js';
import { resultKey } from '../engine/result-key.js';
import { countsLine, displayState, DISPLAY_ORDER, type DisplayState } from '../engine/counts.js';
import type { CheckResult, GroupCounts, RunSummary } from '../engine/types.js';
import { capText, moreBytesNote, oneLine, shortText, SHOWN_BODY_BYTES, TARGET_LINE_PREFIX, visibleControls } from '../escape.js';

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
  if (counts.blocked > 0) parts.push(`${counts.blocked} blocked`);
  return parts.join(', ');
}

/**
 * The line CI reads, always last on the console and in every report's summary: the one set of counts
 * (engine/counts.ts), `N passed, N failed, N blocked, N errored, N skipped`, then warnings, observations and
 * expected failures when there are any.
 */
export function finalLine(summary: RunSummary): string {
  return countsLine(summary.totals);
}

function headerLines(headers: Record<string, string>, indent: string): string[] {
  return Object.entries(headers).map(([name, value]) => `${indent}${shortText(name, 256)}: ${shortText(value, 1024)}`);
}

/** How much of each body an exchange shows, and what prefixes a line of a body. */
export interface ExchangeTextOptions {
  /** Bytes of each body shown (default SHOWN_BODY_BYTES). */
  bodyBytes?: number;
  /** Before every line of a body (default TARGET_LINE_PREFIX). */
  prefix?: string;
}

/**
 * A body as lines: at most `maxBytes`, controls visible, each line behind `prefix` so no line of a body
 * starts a line of the output (a fake verdict line, a workflow command), then how much was left out.
 */
function bodyLines(
  part: { body?: string; bodyBytes: number; bodyTruncated: boolean },
  indent: string,
  options: ExchangeTextOptions,
): string[] {
  const { body, bodyBytes } = part;
  if (body === undefined || body === '') return bodyBytes > 0 ? [`${indent}(${bodyBytes} bytes, not recorded)`] : [];
  const shown = capText(body, options.bodyBytes ?? SHOWN_BODY_BYTES, { totalBytes: bodyBytes, truncated: part.bodyTruncated });
  const prefix = options.prefix ?? TARGET_LINE_PREFIX;
  const lines = visibleControls(shown.text)
    .split('\n')
    .map((line) => `${indent}${prefix}${line}`);
  if (shown.moreBytes > 0) lines.push(`${indent}${moreBytesNote(shown.moreBytes)} (${bodyBytes} in all)`);
  return lines;
}

/**
 * One exchange as text: request line, headers, body; then the answer or the transport error. Target text
 * is made safe for any medium here (controls visible, bodies capped and prefixed); callers escape it
 * further for their markup.
 */
export function formatExchange(exchange: RecordedExchange, indent = '    ', options: ExchangeTextOptions = {}): string[] {
  const lines: string[] = [];
  const label = exchange.label ? ` (${oneLine(exchange.label)})` : '';
  lines.push(`${indent}→ ${oneLine(exchange.request.method)} ${oneLine(exchange.request.url)}${label}`);
  lines.push(...headerLines(exchange.request.headers, `${indent}  `));
  lines.push(...bodyLines(exchange.request, `${indent}  `, options));
  if (exchange.response) {
    lines.push(`${indent}← ${exchange.response.status} after ${formatDuration(exchange.durationMs)}`);
    lines.push(...headerLines(exchange.response.headers, `${indent}  `));
    lines.push(...bodyLines(exchange.response, `${indent}  `, options));
  } else if (exchange.error) {
    lines.push(`${indent}✗ ${exchange.error.code}: ${oneLine(exchange.error.message)}`);
  }
  return lines;
}

/** Skipped checks grouped by reason, most frequent first. */
export function skipsByReason(results: readonly CheckResult[]): Array<{ reason: string; ids: string[] }> {
  const groups = new Map<string, string[]>();
  for (const result of results) {
    if (result.state !== 'skipped') continue;
    const reason = result.reason ?? 'no reason given';
    groups.set(reason, [...(groups.get(reason) ?? []), resultKey(result)]);
  }
  return [...groups.entries()].map(([reason, ids]) => ({ reason, ids })).sort((a, b) => b.ids.length - a.ids.length || a.reason.localeCompare(b.reason));
}

/** Groups in order of first appearance in the results, with their checks. */
export function resultsByGroup(results: readonly CheckResult[]): Map<string, CheckResult[]> {
  const groups = new Map<string, CheckResult[]>();
  for (const result of results) groups.set(result.group, [...(groups.get(result.group) ?? []), result]);
  return groups;
}

export { DISPLAY_ORDER, DISPLAY_TOTAL, displayState, failureKind, type DisplayState } from '../engine/counts.js';

/** Results sorted by {@link DISPLAY_ORDER}, catalogue order within a state. */
export function inDisplayOrder(results: readonly CheckResult[], strict: boolean): CheckResult[] {
  const rank = (r: CheckResult): number => DISPLAY_ORDER.indexOf(displayState(r, strict));
  return results.map((r, i) => ({ r, i })).sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i).map(({ r }) => r);
}

/** Failures and errors that say the same thing, with the checks that said it. */
export interface FailureGroup {
  state: DisplayState;
  /** `error[TARGET_UNREACHABLE]: …` or the failure message. */
  title: string;
  results: CheckResult[];
}

/**
 * Failed and errored checks grouped by what they say (error code and message, or failure message,
 * expected and actual), in display order: a target that died mid-run is one group, not one per check.
 */
export function groupFailures(results: readonly CheckResult[], strict: boolean, states: readonly DisplayState[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const result of inDisplayOrder(results, strict)) {
    const state = displayState(result, strict);
    if (!states.includes(state)) continue;
    const title = result.harnessError
      ? `error[${result.harnessError.code}]: ${result.harnessError.message}`
      : (result.failure?.message ?? result.text);
    const key = `${state}\u0000${title}\u0000${result.failure?.expected ?? ''}\u0000${result.failure?.actual ?? ''}`;
    const group = groups.get(key);
    if (group) group.results.push(result);
    else groups.set(key, { state, title, results: [result] });
  }
  return [...groups.values()];
}

/** The banner of a run that ended early, or undefined when it ran to the end. */
export function abortedBanner(summary: RunSummary): string | undefined {
  const aborted = summary.aborted;
  if (!aborted) return undefined;
  if (aborted.signal) {
    return `RUN INTERRUPTED (${aborted.signal}, exit ${summary.verdict.exitCode}): ${oneLine(aborted.message)}. Recorded before it stopped: ${countsLine(summary.totals)} of ${summary.header.selection.selected} selected`;
  }
  return `RUN ABORTED (error[${aborted.code}]): ${oneLine(aborted.message)}. Recorded before it stopped: ${countsLine(summary.totals)} of ${summary.header.selection.selected} selected`;
}
