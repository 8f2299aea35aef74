/**
 * `--reporter markdown`: <out>/summary.md, and appended to $GITHUB_STEP_SUMMARY when that is set (the one
 * place that writes the step summary). A job page reads top-down: the verdict, a banner when the run
 * stopped early, the totals, a table of what failed, then each distinct failure once with its count and
 * a curl reproduction, within a hard size cap (GitHub refuses step summaries over 1 MiB), then the names
 * of the full reports. Target text is always inside code spans or fences longer than any backtick run
 * it holds, so a body cannot become a link, an image or HTML on the job page.
 */
import { appendFile } from 'node:fs/promises';
import { resultKey, sentPathLine } from '../engine/result-key.js';
import { basename } from 'node:path';
import type { AbsentOperations, EngineReporter, RunScope, RunSummary } from '../engine/types.js';
import { writeReportFile, type ReporterContext } from './context.js';
import { decisiveExchange, reproductionLines, reproductionsFor, type Reproduction } from './reproductions.js';
import { failedRows, mdCatalogueText } from './markdown-rows.js';
import { rerunFor, type RunInvocation } from './rerun.js';
import { mdCode, mdFence, mdText, shortText } from '../escape.js';
import { abortedBanner, finalLine, formatDuration, formatExchange, inDisplayOrder, displayState, skipsByReason, type DisplayState } from './format.js';
import { absentDetailLines, absentView, notImplementedLine, scopeLine, acceptedInsteadLine, blockedReason, causeView, dependantLine, dependantsOf, dependsOnIt, groupRootCauses, pulledInLine, uniformAnswerLines, withoutDependants, type CauseGroup, type CauseView } from './root-cause-order.js';
import { MARKDOWN_REPORT_FILE } from './file-names.js';

/** The whole summary stays under this (GitHub's step-summary limit is 1 MiB per step). */
export const MARKDOWN_MAX_BYTES = 100_000;
/** Budget of the failed-IDs table; the detail blocks get what is left. */
const TABLE_MAX_BYTES = 40_000;
/** Room kept for the closing sections (skips, artifacts, the last line). */
const CLOSING_RESERVE_BYTES = 8_000;

const BAD_STATES: readonly DisplayState[] = ['failed', 'errored', 'blocked', 'warning'];
const STATE_WORD: Record<DisplayState, string> = {
  failed: '❌ failed',
  errored: '⚠️ error',
  blocked: '⊘ blocked',
  warning: '🟡 warning',
  observation: 'ℹ️ info',
  expected: '〰️ expected',
  passed: 'passed',
  skipped: 'skipped',
};

function bytes(lines: readonly string[]): number {
  return Buffer.byteLength(lines.join('\n'), 'utf8') + lines.length;
}

function abbreviateIds(ids: readonly string[], max = 12): string {
  const shown = ids.slice(0, max).join(', ');
  return ids.length <= max ? shown : `${shown} and ${ids.length - max} more`;
}

/** Dependants shown in a root cause's collapsed list; the rest are counted. */
const MAX_DEPENDANTS_LISTED = 60;

/** "N checks depend on it", then the dependants one click away. */
function dependantsBlock(dependants: CauseGroup['dependants']): string[] {
  if (dependants.length === 0) return [];
  const listed = dependants.slice(0, MAX_DEPENDANTS_LISTED).map((r) => `- ${mdText(dependantLine(r))}`);
  const more = dependants.length > MAX_DEPENDANTS_LISTED ? [`- … and ${dependants.length - MAX_DEPENDANTS_LISTED} more`] : [];
  return [`<details><summary>${dependants.length} dependant check${dependants.length === 1 ? '' : 's'}</summary>`, '', ...listed, ...more, '', '</details>', ''];
}

function groupBlock(group: CauseGroup, view: CauseView, rerun?: string, reproduction?: Reproduction): string[] {
  const first = group.results[0]!;
  const count = group.results.length;
  const heading = count === 1 ? `#### ${resultKey(first)}: ${mdText(shortText(group.title, 300))}` : `#### ${mdText(shortText(group.title, 300))} × ${count}`;
  const lines = [heading, ''];
  lines.push(`${STATE_WORD[group.state]} · ${count === 1 ? `${first.level}, §${mdText(first.section)}: ${mdCatalogueText(first.text)}` : `checks: ${mdText(abbreviateIds(group.results.map((r) => resultKey(r))))}`}`, '');
  const pulled = count === 1 ? pulledInLine(first) : undefined;
  if (pulled) lines.push(`- **${mdText(pulled)}** (the selection did not name it)`);
  if (first.operation) lines.push(`- ${mdCode(sentPathLine(first.operation))}`);
  if (first.failure?.expected) lines.push(`- expected: ${mdCode(shortText(first.failure.expected))}`);
  if (first.failure?.actual) lines.push(`- actual: ${mdCode(shortText(first.failure.actual))}`);
  if (first.harnessError?.hint) lines.push(`- hint: ${mdText(shortText(first.harnessError.hint))}`);
  if (first.state === 'blocked') lines.push(`- ${mdText(shortText(blockedReason(first)))}`);
  const accepted = acceptedInsteadLine(view, resultKey(first));
  if (accepted) lines.push(`- **${mdText(shortText(accepted, 600))}**`);
  if (group.dependants.length > 0) lines.push(`- **${dependsOnIt(group.dependants.length)}**`);
  for (const observation of first.observations.slice(0, 3)) lines.push(`- note: ${mdCode(shortText(observation))}`);
  if (rerun) lines.push('', `Rerun${count > 1 ? ` (${resultKey(first)})` : ''}:`, '', ...mdFence(rerun, 'sh'));
  for (const [label, text] of reproductionLines(first, reproduction)) {
    lines.push('', `${label[0]!.toUpperCase()}${label.slice(1)}${count > 1 ? ` (${resultKey(first)})` : ''}:`, '', ...mdFence(text, 'sh'));
  }
  const exchange = decisiveExchange(first.exchanges);
  if (exchange) {
    lines.push('', '<details><summary>last exchange</summary>', '', ...mdFence(formatExchange(exchange, '', { prefix: '', bodyBytes: 1024 }).join('\n'), 'http'), '', '</details>');
  }
  lines.push('', ...dependantsBlock(group.dependants));
  return lines;
}

/** One root cause for the operations that answer a valid call with the same 404 or 501, each listed once. */
function absentBlock(group: AbsentOperations, view: CauseView): string[] {
  const detail = absentDetailLines(group, view);
  return [
    `#### ${mdText(group.message)}`,
    '',
    ...detail.about.map((line) => `- ${mdText(line)}`),
    '',
    `<details><summary>the ${group.operations.length} operations</summary>`,
    '',
    ...detail.operations.map((line) => `- ${mdCode(shortText(line, 300))}`),
    '',
    '</details>',
    '',
  ];
}

/** The scope the run certifies: one line, and the operations not implemented one click away. */
function scopeBlock(scope: RunScope): string[] {
  const lines = [`### Scope: ${mdText(scopeLine(scope))}`, ''];
  if (scope.notImplemented.length > 0) {
    lines.push('<details><summary>not implemented</summary>', '', ...scope.notImplemented.map((entry) => `- ${mdCode(shortText(notImplementedLine(entry), 300))}`), '', '</details>', '');
  }
  return lines;
}

export function renderMarkdown(summary: RunSummary, artifacts: readonly string[] = [], invocation?: RunInvocation, reproductions: ReadonlyMap<string, Reproduction> = new Map()): string {
  const { header, totals, verdict } = summary;
  const strict = header.strict;
  const icon = verdict.status === 'conformant' ? '✅' : verdict.status === 'not-conformant' ? '❌' : '⚠️';
  const lines = [`## ${icon} access-conformance: ${verdict.status} (exit ${verdict.exitCode})`, ''];
  const banner = abortedBanner(summary);
  if (banner) lines.push(`> **${mdText(banner)}**`, '');
  if (summary.clockMoved) lines.push(`> ${mdText(`Target clock: ${summary.clockMoved.note}`)}`, '');
  const uniform = uniformAnswerLines(summary);
  if (uniform.length > 0) lines.push(...uniform.map((line) => `> **${mdText(line)}**`).join('\n>\n').split('\n'), '');
  if (summary.scope) lines.push(`> **${mdText(`Scope: ${scopeLine(summary.scope)}; a certificate of these operations only.`)}**`, '');
  lines.push(
    `${mdText(verdict.reason)}. Target ${mdCode(header.target)} (profile ${mdText(header.profileName)}), seed ${mdCode(header.seed)}, ${mdText(`${header.tool.name} ${header.tool.version}`)}, catalogue ${mdText(header.catalogueVersion)}, ${formatDuration(summary.durationMs)}${strict ? ', \\-\\-strict' : ''}.`,
    '',
    `**${finalLine(summary)}**`,
    '',
    '<details><summary>state by level</summary>',
    '',
    '| level | passed | failed | blocked | errored | skipped |',
    '|---|---:|---:|---:|---:|---:|',
    ...(['MUST', 'SHOULD', 'INFO'] as const).map((level) => {
      const t = totals.byLevel[level];
      return `| ${level} | ${t.passed} | ${t.failed} | ${t.blocked} | ${t.errored} | ${t.skipped} |`;
    }),
    '',
    '</details>',
    '',
  );
  for (const note of header.notes.slice(0, 10)) lines.push(`- note: ${mdText(shortText(note, 300))}`);
  for (const error of summary.harnessErrors) lines.push(`- error\\[${mdText(error.code)}\\]: ${mdCode(shortText(error.message))}`);
  if (header.notes.length > 0 || summary.harnessErrors.length > 0) lines.push('');

  const reportNames = artifacts.map((path) => basename(path)).filter((name) => name !== MARKDOWN_REPORT_FILE);
  const elsewhere = reportNames.length > 0 ? reportNames.map((name) => mdCode(name)).join(', ') : 'the html or json report (`--reporter html,json`)';
  // Root cause first: the table and the blocks list root causes; their dependants are one click away.
  const view = causeView(summary);
  // Operations that answer a valid call with the same 404 or 501 are one root cause, listed once.
  const absent = absentView(summary);
  const bad = inDisplayOrder(withoutDependants(summary.results, view), strict).filter((r) => BAD_STATES.includes(displayState(r, strict)) && !absent.grouped.has(resultKey(r)));
  const rank = new Map(view.causes.map((cause, i) => [cause.id, i]));
  bad.sort((a, b) => BAD_STATES.indexOf(displayState(a, strict)) - BAD_STATES.indexOf(displayState(b, strict)) || (rank.get(resultKey(a)) ?? 0) - (rank.get(resultKey(b)) ?? 0));
  if (bad.length > 0 || absent.groups.length > 0) {
    const following = view.causes.reduce((n, cause) => n + cause.dependants.length, 0);
    lines.push(`### Root causes: what did not pass (${bad.length + absent.groups.length})`, '');
    if (following > 0) lines.push(`Root causes first: ${following} more check${following === 1 ? '' : 's'} that follow from them ${following === 1 ? 'is' : 'are'} listed under each, one click away.`, '');
    lines.push('| ID | level | state | requirement |', '|---|---|---|---|');
    for (const group of absent.groups) {
      const first = view.byId.get(group.roots[0]!);
      lines.push(`| ${group.operations.length} operations | ${first?.level ?? 'MUST'} | ${STATE_WORD[first ? displayState(first, strict) : 'failed']} | ${mdText(group.message)} **(${group.dependants} checks depend on them)** |`);
    }
    const tableStart = bytes(lines);
    let shown = 0;
    // Errored checks are one row per error code (markdown-rows.ts): an unreachable target is one row.
    for (const item of failedRows(bad, strict)) {
      let row: string;
      if (item.kind === 'check') {
        const r = item.result;
        const dependants = dependantsOf(view, resultKey(r)).length;
        const accepted = acceptedInsteadLine(view, resultKey(r));
        const beside = [pulledInLine(r) ?? '', dependants > 0 ? dependsOnIt(dependants) : '', accepted ?? ''].filter(Boolean).join('; ');
        row = `| ${resultKey(r)} | ${r.level} | ${STATE_WORD[item.state]} | ${mdCatalogueText(r.text)}${beside ? ` **(${mdText(beside)})**` : ''} |`;
      } else {
        const ids = item.results.length === 1 ? item.results[0]!.id : `${item.results.length} checks: ${mdText(abbreviateIds(item.results.map((r) => resultKey(r)), 8))}`;
        row = `| ${ids} | ${[...new Set(item.results.map((r) => r.level))].join(', ')} | ${STATE_WORD.errored} | error\\[${mdText(item.code)}\\]: ${mdCode(shortText(item.results[0]!.harnessError?.message ?? '', 300))} |`;
      }
      if (bytes(lines) - tableStart + row.length > TABLE_MAX_BYTES) break;
      lines.push(row);
      shown += item.kind === 'check' ? 1 : item.results.length;
    }
    lines.push('');
    if (shown < bad.length) lines.push(`${bad.length - shown} more in ${elsewhere}.`, '');

    const groups = groupRootCauses(summary, strict, BAD_STATES, view, absent.grouped);
    lines.push(`### What failed (${groups.length + absent.groups.length} distinct)`, '');
    for (const group of absent.groups) lines.push(...absentBlock(group, view));
    let written = 0;
    for (const group of groups) {
      const block = groupBlock(group, view, rerunFor(invocation, summary.header, group.results[0]!.id), reproductions.get(group.results[0]!.id));
      if (bytes(lines) + bytes(block) > MARKDOWN_MAX_BYTES - CLOSING_RESERVE_BYTES) break;
      lines.push(...block);
      written += 1;
    }
    if (written < groups.length) lines.push(`**${groups.length - written} more distinct failures in ${elsewhere}.**`, '');
  }

  const expected = summary.results.filter((r) => displayState(r, strict) === 'expected');
  if (expected.length > 0) lines.push(`Expected failures (baseline): ${mdText(abbreviateIds(expected.map((r) => resultKey(r)), 40))}`, '');
  if (summary.baseline && summary.baseline.noLongerFailing.length > 0) {
    lines.push('### Fixed: the baseline lists them and they pass now (remove them from it)', '', ...summary.baseline.noLongerFailing.slice(0, 100).map((id) => `- ${mdText(id)}`), '');
  }
  if (summary.scope) lines.push(...scopeBlock(summary.scope));
  const skips = skipsByReason(summary.results);
  if (skips.length > 0) {
    lines.push('<details><summary>Skipped checks by reason</summary>', '', '| reason | checks |', '|---|---|');
    for (const skip of skips.slice(0, 20)) lines.push(`| ${mdCode(shortText(skip.reason, 300))} | ${skip.ids.length}: ${mdText(abbreviateIds(skip.ids, 20))} |`);
    lines.push('', '</details>', '');
  }
  if (reportNames.length > 0) lines.push(`Full reports (job artifacts): ${reportNames.map((name) => mdCode(name)).join(', ')}`, '');
  lines.push(finalLine(summary), '');
  return lines.join('\n');
}

export class MarkdownReporter implements EngineReporter {
  /** Shows the exchanges of failed, errored and blocked checks only. */
  readonly readsPassedExchanges = false;
  constructor(private readonly ctx: ReporterContext) {}

  async onRunEnd(summary: RunSummary): Promise<void> {
    const reproductions = await reproductionsFor(summary, this.ctx);
    const artifacts = [...this.ctx.artifacts];
    const text = await writeReportFile(this.ctx, MARKDOWN_REPORT_FILE, summary, (redacted) => renderMarkdown(redacted, artifacts, this.ctx.invocation, reproductions));
    const stepSummary = this.ctx.env.GITHUB_STEP_SUMMARY;
    if (stepSummary) {
      await appendFile(stepSummary, `${text}\n`);
      this.ctx.artifacts.push(`${stepSummary} (GitHub step summary, appended)`);
    }
  }
}
