/**
 * `--reporter markdown`: <out>/summary.md, and appended to $GITHUB_STEP_SUMMARY when that is set, so a
 * GitHub Actions job page shows the verdict, the totals by level and every failure.
 */
import { appendFile } from 'node:fs/promises';
import type { CheckResult, EngineReporter, RunSummary } from '../engine/types.js';
import { writeReportFile, type ReporterContext } from './context.js';
import { failureKind, finalLine, formatDuration, formatExchange, skipsByReason } from './format.js';

export const MARKDOWN_REPORT_FILE = 'summary.md';
/** Exchanges shown per failure in the summary; the html report has them all. */
const MARKDOWN_EXCHANGES = 2;

/** Text inside a table cell: no pipes or line breaks. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function inlineCode(text: string): string {
  const clean = text.replace(/\r?\n/g, ' ');
  return clean.includes('`') ? `\`\` ${clean} \`\`` : `\`${clean}\``;
}

function failureBlock(result: CheckResult): string[] {
  const lines = [`#### ${result.id} (${result.level}, §${result.section}): ${result.text}`, ''];
  if (result.failure) {
    lines.push(result.failure.message, '');
    if (result.failure.expected) lines.push(`- expected: ${inlineCode(result.failure.expected)}`);
    if (result.failure.actual) lines.push(`- actual: ${inlineCode(result.failure.actual)}`);
  }
  if (result.harnessError) lines.push(`- error[${result.harnessError.code}]: ${result.harnessError.message}`);
  const shown = result.exchanges.slice(-MARKDOWN_EXCHANGES);
  if (shown.length > 0) {
    lines.push('', '<details><summary>exchanges</summary>', '', '```http');
    for (const exchange of shown) lines.push(...formatExchange(exchange, '').map((line) => line.replace(/```/g, "'''")));
    lines.push('```', '', '</details>');
  }
  lines.push('');
  return lines;
}

export function renderMarkdown(summary: RunSummary): string {
  const { header, totals, verdict } = summary;
  const strict = header.strict;
  const icon = verdict.status === 'conformant' ? '✅' : verdict.status === 'not-conformant' ? '❌' : '⚠️';
  const lines = [
    `## ${icon} access-conformance: ${verdict.status}`,
    '',
    `${cell(verdict.reason)}. Target \`${header.target}\` (profile ${cell(header.profileName)}), seed \`${header.seed}\`, ${header.tool.name} ${header.tool.version}, catalogue ${header.catalogueVersion}, ${formatDuration(summary.durationMs)}${strict ? ', --strict' : ''}.`,
    '',
    '| level | passed | failed | skipped | errored |',
    '|---|---:|---:|---:|---:|',
    ...(['MUST', 'SHOULD', 'INFO'] as const).map((level) => {
      const t = totals.byLevel[level];
      return `| ${level} | ${t.passed} | ${t.failed} | ${t.skipped} | ${t.errored} |`;
    }),
    `| **all** | **${totals.passed}** | **${totals.failed}** | **${totals.skipped}** | **${totals.errored}** |`,
    '',
  ];
  const failed = summary.results.filter((r) => r.state === 'failed');
  const blocks: Array<[string, CheckResult[]]> = [
    ['Failures', failed.filter((r) => failureKind(r, strict) === 'failure')],
    ['Harness errors', summary.results.filter((r) => r.state === 'errored')],
    ['Warnings (SHOULD, fail only with --strict)', failed.filter((r) => failureKind(r, strict) === 'warning')],
    ['Expected failures (baseline)', failed.filter((r) => r.expectedFailure)],
  ];
  for (const [title, items] of blocks) {
    if (items.length === 0) continue;
    lines.push(`### ${title} (${items.length})`, '');
    for (const item of items) lines.push(...failureBlock(item));
  }
  if (summary.baseline && summary.baseline.noLongerFailing.length > 0) {
    lines.push('### No longer failing: remove from the baseline', '', ...summary.baseline.noLongerFailing.map((id) => `- ${id}`), '');
  }
  const skips = skipsByReason(summary.results);
  if (skips.length > 0) {
    lines.push('<details><summary>Skipped checks by reason</summary>', '', '| reason | checks |', '|---|---|');
    for (const skip of skips) lines.push(`| ${cell(skip.reason)} | ${skip.ids.length}: ${cell(skip.ids.join(', '))} |`);
    lines.push('', '</details>', '');
  }
  lines.push(finalLine(summary), '');
  return lines.join('\n');
}

export class MarkdownReporter implements EngineReporter {
  constructor(private readonly ctx: ReporterContext) {}

  async onRunEnd(summary: RunSummary): Promise<void> {
    const text = await writeReportFile(this.ctx, MARKDOWN_REPORT_FILE, summary, renderMarkdown);
    const stepSummary = this.ctx.env.GITHUB_STEP_SUMMARY;
    if (stepSummary) {
      await appendFile(stepSummary, `${text}\n`);
      this.ctx.artifacts.push(`${stepSummary} (GitHub step summary, appended)`);
    }
  }
}
