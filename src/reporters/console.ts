/**
 * The console: header, one progress line per group, a heartbeat while a group runs long, then failures
 * (with the requirement sentence, expected vs actual and the exchanges that showed it), warnings, errors,
 * skips by reason, and last the plain `N passed, N failed, N skipped` line CI reads.
 */
import type { CheckResult, EngineReporter, GroupEndEvent, HeartbeatEvent, RunHeader, RunSummary } from '../engine/types.js';
import type { ReporterContext } from './context.js';
import { failureKind, finalLine, formatCounts, formatDuration, formatExchange, skipsByReason } from './format.js';

const PROGRESS_WIDTH = 34;
/** Exchanges printed per failure on the console (reports keep them all). */
const CONSOLE_EXCHANGES = 3;

export class ConsoleReporter implements EngineReporter {
  constructor(private readonly ctx: ReporterContext) {}

  private print(lines: string | string[]): void {
    const text = Array.isArray(lines) ? lines.join('\n') : lines;
    this.ctx.stdout.write(`${this.ctx.redact(text)}\n`);
  }

  onRunStart(header: RunHeader): void {
    const lines = [
      `${header.tool.name} ${header.tool.version} (catalogue ${header.catalogueVersion})`,
      `  profile   ${header.profileName}`,
      `  target    ${header.target}${header.targetDescription ? ` (${header.targetDescription})` : ''}`,
      `  seed      ${header.seed}   (--seed ${header.seed} repeats every generated value)`,
      `  selection ${header.selection.selected} checks${describeSelection(header)}${header.strict ? ', --strict' : ''}`,
      `  limits    ${header.settings.timeoutMs} ms per request, concurrency ${header.settings.concurrency}${header.settings.rateLimit === undefined ? '' : `, at most ${header.settings.rateLimit} requests/s`}` +
        (header.settings.maxDurationMs === undefined ? '' : `, deadline ${formatDuration(header.settings.maxDurationMs)} (--max-duration)`),
      `  hooks     clock ${header.capabilities.clock ? 'yes' : 'no'}, runs ${header.capabilities.runs ? 'yes' : 'no'}`,
      ...header.notes.map((note) => `  note: ${note}`),
      '',
    ];
    this.print(lines);
  }

  onGroupEnd(event: GroupEndEvent): void {
    const name = event.phase === 'clock' ? `${event.group} (clock)` : event.group;
    const dots = '.'.repeat(Math.max(3, PROGRESS_WIDTH - name.length - 1));
    this.print(`  ${name} ${dots} ${formatCounts(event.counts)}  (${formatDuration(event.durationMs)})`);
  }

  onHeartbeat(event: HeartbeatEvent): void {
    const running = event.running.map((g) => `${g.group} ${g.done}/${g.checks} for ${formatDuration(g.elapsedMs)}`).join('; ');
    this.print(`  … still running: ${running}`);
  }

  onRunEnd(summary: RunSummary): void {
    const lines: string[] = [''];
    const strict = summary.header.strict;
    const failed = summary.results.filter((r) => r.state === 'failed');
    const section = (title: string, items: CheckResult[], render: (r: CheckResult) => string[]): void => {
      if (items.length === 0) return;
      lines.push(`${title} (${items.length})`, '');
      for (const item of items) lines.push(...render(item), '');
    };
    section('FAILURES', failed.filter((r) => failureKind(r, strict) === 'failure'), (r) => describeFailure(r));
    section('WARNINGS: SHOULD requirements that failed (they fail the run only with --strict)', failed.filter((r) => failureKind(r, strict) === 'warning'), (r) =>
      describeFailure(r, 1),
    );
    section('HARNESS ERRORS: checks that could not be decided', summary.results.filter((r) => r.state === 'errored'), (r) => [
      `✗ ${r.id} [${r.level}] ${r.text}`,
      `    error[${r.harnessError?.code ?? 'INTERNAL'}]: ${r.harnessError?.message ?? 'unknown error'}`,
      ...(r.harnessError?.hint ? [`    hint: ${r.harnessError.hint}`] : []),
    ]);
    for (const error of summary.harnessErrors) lines.push(`error[${error.code}]: ${error.message}`, '');
    section('OBSERVATIONS (INFO, never fail the run)', failed.filter((r) => failureKind(r, strict) === 'observation'), (r) => [
      `i ${r.id} ${r.text}`,
      `    ${r.failure?.message ?? ''}`,
    ]);
    section('EXPECTED FAILURES (listed in the baseline)', failed.filter((r) => r.expectedFailure), (r) => [`~ ${r.id} [${r.level}] ${r.failure?.message ?? r.text}`]);
    if (summary.baseline && summary.baseline.noLongerFailing.length > 0) {
      lines.push(`NO LONGER FAILING: remove from the baseline ${summary.baseline.source}:`, ...summary.baseline.noLongerFailing.map((id) => `  ${id}`), '');
    }
    if (summary.baseline && summary.baseline.unknown.length > 0) {
      lines.push(`baseline IDs not in this run's selection or the catalogue (ignored): ${summary.baseline.unknown.join(', ')}`, '');
    }
    const skips = skipsByReason(summary.results);
    if (skips.length > 0) {
      lines.push('SKIPPED, by reason');
      for (const skip of skips) lines.push(`  ${skip.ids.length} × ${skip.reason}: ${abbreviate(skip.ids)}`);
      lines.push('');
    }
    for (const file of this.ctx.artifacts) lines.push(`report: ${file}`);
    if (this.ctx.artifacts.length > 0) lines.push('');
    const t = summary.totals;
    lines.push(
      `MUST ${t.byLevel.MUST.passed} passed / ${t.byLevel.MUST.failed} failed, SHOULD ${t.byLevel.SHOULD.passed} passed / ${t.byLevel.SHOULD.failed} failed, INFO ${t.byLevel.INFO.passed + t.byLevel.INFO.failed} recorded` +
        (t.errored > 0 ? `, ${t.errored} errored` : '') +
        (t.expectedFailures > 0 ? `, ${t.expectedFailures} expected failures` : ''),
    );
    lines.push(`verdict: ${summary.verdict.status} (exit ${summary.verdict.exitCode}): ${summary.verdict.reason}; took ${formatDuration(summary.durationMs)}`);
    lines.push(finalLine(summary));
    this.print(lines);
  }
}

function describeSelection(header: RunHeader): string {
  const parts: string[] = [];
  if (header.selection.only.length > 0) parts.push(`--only ${header.selection.only.join(',')}`);
  if (header.selection.skip.length > 0) parts.push(`--skip ${header.selection.skip.join(',')}`);
  return parts.length > 0 ? ` (${parts.join(' ')})` : '';
}

function abbreviate(ids: string[], max = 8): string {
  return ids.length <= max ? ids.join(', ') : `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;
}

function describeFailure(result: CheckResult, maxExchanges = CONSOLE_EXCHANGES): string[] {
  const lines = [`✗ ${result.id} [${result.level}] §${result.section}${result.ruling ? ` ruling ${result.ruling}` : ''}: ${result.text}`];
  if (result.failure) {
    lines.push(`    ${result.failure.message}`);
    if (result.failure.expected) lines.push(`    expected: ${result.failure.expected}`);
    if (result.failure.actual) lines.push(`    actual:   ${result.failure.actual}`);
  }
  for (const observation of result.observations) lines.push(`    note: ${observation}`);
  // The last exchanges are the ones that showed the failure; earlier ones set it up.
  const shown = result.exchanges.slice(-maxExchanges);
  if (shown.length > 0) {
    lines.push(`    exchanges (${shown.length} of ${result.exchanges.length}):`);
    for (const exchange of shown) lines.push(...formatExchange(exchange, '      '));
  }
  return lines;
}
