/**
 * The console: header, one progress line per group, a heartbeat while a group runs long, then failures
 * (with the requirement sentence, expected vs actual and the exchanges that showed it), warnings, errors,
 * skips by reason, and last the counts line CI reads (`N passed, N failed, N blocked, N errored, N skipped`,
 * engine/counts.ts).
 */
import { rerunFor } from './rerun.js';
import { resultKey, sentPathLine } from '../engine/result-key.js';
import type { AbsentOperations, CheckResult, EngineReporter, GroupEndEvent, HeartbeatEvent, RunHeader, RunScope, RunSummary, UniformAnswer } from '../engine/types.js';
import { scopeSnippet } from '../engine/scope.js';
import type { ReporterContext } from './context.js';
import { reproductionLines, reproductionsFor, reproductionsLine, type Reproduction } from './reproductions.js';
import { oneLine, shortText, visibleControls } from '../escape.js';
import { abortedBanner, failureKind, finalLine, formatCounts, formatDuration, formatExchange, skipsByReason } from './format.js';
import {
  absentDetailLines,
  absentView,
  acceptedInsteadLine,
  blockedReason,
  causeView,
  dependantLine,
  dependantsOf,
  dependsOnIt,
  groupRootCauses,
  notImplementedLine,
  ofAbsentOperation,
  pulledInLine,
  scopeLine,
  uniformAnswerLines,
  withoutDependants,
  type CauseView,
} from './root-cause-order.js';

const PROGRESS_WIDTH = 34;
/** Exchanges printed per failure on the console, and bytes of each body (reports keep more). */
const CONSOLE_EXCHANGES = 2;
const CONSOLE_BODY_BYTES = 1024;
/** Failures printed in full; the rest get one line each. */
const CONSOLE_DETAILED_FAILURES = 25;

export class ConsoleReporter implements EngineReporter {
  /** Shows the exchanges of failed, errored and blocked checks only. */
  readonly readsPassedExchanges = false;
  constructor(private readonly ctx: ReporterContext) {}

  private print(lines: string | string[]): void {
    const text = Array.isArray(lines) ? lines.join('\n') : lines;
    // Last line of defence for the terminal: nothing printed can move the cursor or recolour text.
    this.ctx.stdout.write(`${visibleControls(this.ctx.redact(text))}\n`);
  }

  onRunStart(header: RunHeader): void {
    const lines = [
      `${header.tool.name} ${header.tool.version} (catalogue ${header.catalogueVersion})`,
      `  profile   ${oneLine(header.profileName)}`,
      `  target    ${oneLine(header.target)}${header.targetDescription ? ` (${oneLine(header.targetDescription)})` : ''}`,
      `  seed      ${header.seed}   (--seed ${header.seed} repeats every generated value)`,
      `  selection ${header.selection.selected} checks${describeSelection(header)}${header.strict ? ', --strict' : ''}`,
      `  limits    ${header.settings.timeoutMs} ms per request, concurrency ${header.settings.concurrency}${header.settings.rateLimit === undefined ? '' : `, at most ${header.settings.rateLimit} requests/s`}` +
        (header.settings.maxDurationMs === undefined ? '' : `, deadline ${formatDuration(header.settings.maxDurationMs)} (--max-duration)`),
      `  hooks     clock ${header.capabilities.clock ? 'yes' : 'no'}, runs ${header.capabilities.runs ? 'yes' : 'no'}`,
      ...header.notes.map((note) => `  note: ${oneLine(note)}`),
      '',
    ];
    this.print(lines);
  }

  onGroupEnd(event: GroupEndEvent): void {
    const name = event.phase === 'clock' ? `${event.group} (clock)` : event.group;
    const dots = '.'.repeat(Math.max(3, PROGRESS_WIDTH - name.length - 1));
    this.print(`  ${name} ${dots} ${formatCounts(event.counts)}  (${formatDuration(event.durationMs)})`);
  }

  /** The first requests all got one answer: said before any group line (the engine holds those back). */
  onUniformAnswer(answer: UniformAnswer): void {
    this.print([...uniformAnswerLines({ uniformAnswer: answer }), '']);
  }

  onHeartbeat(event: HeartbeatEvent): void {
    const running = event.running.map((g) => `${g.group} ${g.done}/${g.checks} for ${formatDuration(g.elapsedMs)}`).join('; ');
    this.print(`  … still running: ${running}`);
  }

  async onRunEnd(summary: RunSummary): Promise<void> {
    const reproductions = await reproductionsFor(summary, this.ctx);
    const lines: string[] = ['', ...uniformAnswerLines(summary)];
    if (summary.uniformAnswer) lines.push('');
    const strict = summary.header.strict;
    // Root cause first: a dependant is listed under the check it follows from, never on its own.
    const view = causeView(summary);
    // Operations that answer a valid call with the same 404 or 501: one block each status, not one per operation.
    const absent = absentView(summary);
    const failed = withoutDependants(summary.results, view).filter((r) => r.state === 'failed' && !absent.grouped.has(resultKey(r)));
    const absentBlocks = (kind: ReturnType<typeof failureKind>): { blocks: string[][]; roots: number } => {
      const groups = absent.groups.filter((group) => {
        const first = view.byId.get(group.roots[0]!);
        return first !== undefined && failureKind(first, strict) === kind;
      });
      return { blocks: groups.map((group) => absentBlock(group, view)), roots: groups.reduce((n, group) => n + group.roots.length, 0) };
    };
    const section = (title: string | ((shown: number) => string), items: CheckResult[], render: (r: CheckResult) => string[], lead: { blocks: string[][]; roots: number } = { blocks: [], roots: 0 }): void => {
      if (items.length === 0 && lead.blocks.length === 0) return;
      const shown = items.length + lead.roots;
      lines.push(typeof title === 'string' ? `${title} (${shown})` : title(shown), '');
      for (const block of lead.blocks) lines.push(...block, '');
      for (const item of items) {
        const block = render(item);
        lines.push(...block);
        // Multi-line entries are set apart; one-line entries stay a compact list.
        if (block.length > 1) lines.push('');
      }
      if (lines.at(-1) !== '') lines.push('');
    };
    // Past the first failures, one line each: a target that fails everything must not flood the log.
    let detailed = 0;
    const describe = (r: CheckResult, maxExchanges?: number): string[] => {
      const full = (detailed += 1) <= CONSOLE_DETAILED_FAILURES;
      const lines = full ? describeFailure(r, maxExchanges, rerunFor(this.ctx.invocation, summary.header, resultKey(r)), reproductions.get(resultKey(r))) : [`✗ ${resultKey(r)} [${r.level}] §${r.section}: ${shortText(r.failure?.message ?? r.text, 300)}`];
      // Beside the root cause, before its exchanges: why it is in the run when the selection did not name it,
      // the rule the target applies instead, and the count.
      const dependants = dependantsOf(view, resultKey(r));
      const beside = [pulledInLine(r), acceptedInsteadLine(view, resultKey(r)), dependants.length > 0 ? dependsOnIt(dependants.length) : undefined].filter((line): line is string => line !== undefined);
      lines.splice(full && r.failure ? 2 : 1, 0, ...beside.map((line) => `    ${shortText(line, 600)}`));
      return [...lines, ...dependantLines(dependants)];
    };
    // The headings count checks, the same counts as the last line (engine/counts.ts); root causes are listed
    // with the checks that follow from them under each.
    section(countedTitle('FAILURES', summary.totals.failed), failed.filter((r) => failureKind(r, strict) === 'failure'), (r) => describe(r), absentBlocks('failure'));
    section(
      countedTitle('WARNINGS: SHOULD requirements that failed (they fail the run only with --strict)', summary.totals.warnings),
      failed.filter((r) => failureKind(r, strict) === 'warning'),
      (r) => describe(r, 1),
      absentBlocks('warning'),
    );
    if (detailed > CONSOLE_DETAILED_FAILURES) {
      lines.push(`(${detailed - CONSOLE_DETAILED_FAILURES} failures above on one line each: their exchanges and reproductions are in the html, json and junit reports)`, '');
    }
    // Identical errors (a target that died mid-run) are one entry with the IDs, not one per check.
    const errorGroups = groupRootCauses(summary, strict, ['errored'], view);
    if (errorGroups.length > 0) {
      lines.push(countedTitle('HARNESS ERRORS: checks that could not be decided', summary.totals.errored)(errorGroups.reduce((n, g) => n + g.results.length, 0)), '');
      for (const group of errorGroups) {
        const first = group.results[0]!;
        const pulled = group.results.length === 1 ? pulledInLine(first) : undefined;
        lines.push(
          group.results.length === 1 ? `✗ ${resultKey(first)} [${first.level}] ${first.text}` : `✗ ${group.results.length} × ${abbreviate(group.results.map((r) => resultKey(r)))}`,
          ...(pulled ? [`    ${pulled}`] : []),
          `    ${shortText(group.title)}`,
          ...(first.harnessError?.hint ? [`    hint: ${shortText(first.harnessError.hint)}`] : []),
          ...dependantLines(group.dependants),
          '',
        );
      }
    }
    section('BLOCKED: refusal checks whose own control request was not accepted', withoutDependants(summary.results, view).filter((r) => r.state === 'blocked' && !r.expectedFailure), (r) => [
      `⊘ ${resultKey(r)} [${r.level}] ${r.text}`,
      ...(pulledInLine(r) ? [`    ${pulledInLine(r)}`] : []),
      `    ${shortText(blockedReason(r))}`,
      ...dependantLines(dependantsOf(view, resultKey(r))),
    ]);
    for (const error of summary.harnessErrors) lines.push(`error[${error.code}]: ${shortText(error.message)}`, '');
    section(countedTitle('OBSERVATIONS (INFO, never fail the run)', summary.totals.observations), failed.filter((r) => failureKind(r, strict) === 'observation'), (r) => [
      `i ${resultKey(r)} ${r.text}`,
      `    ${shortText(r.failure?.message ?? '')}`,
    ]);
    const expectedRoots = withoutDependants(summary.results, view).filter((r) => r.expectedFailure);
    section(`EXPECTED FAILURES: ${summary.totals.expectedFailures} results the baseline expects, under the root causes it lists`, expectedRoots, (r) => {
      const dependants = dependantsOf(view, resultKey(r)).filter((d) => d.expectedFailure).length;
      return [`~ ${resultKey(r)} [${r.level}] ${shortText(r.failure?.message ?? blockedReason(r))}${dependants > 0 ? ` (and ${dependants} check${dependants === 1 ? '' : 's'} that depend on it)` : ''}`];
    });
    if (summary.baseline && summary.baseline.noLongerFailing.length > 0) {
      lines.push(`FIXED (${summary.baseline.noLongerFailing.length}): the baseline lists them and they pass now; remove them from ${summary.baseline.source}:`, ...summary.baseline.noLongerFailing.map((id) => `  ${id}`), '');
    }
    if (summary.baseline && summary.baseline.unknown.length > 0) {
      lines.push(`baseline IDs not in this run's selection or the catalogue (ignored): ${summary.baseline.unknown.join(', ')}`, '');
    }
    // The skips of the grouped operations follow from their 404 or 501: one line, not one per operation.
    const skips = skipsByReason(summary.results.filter((r) => !ofAbsentOperation(r, absent)));
    const absentSkips = summary.results.filter((r) => r.state === 'skipped' && ofAbsentOperation(r, absent)).length;
    if (skips.length > 0 || absentSkips > 0) {
      lines.push('SKIPPED, by reason');
      if (absentSkips > 0) lines.push(`  ${absentSkips} × checks of the ${absent.operations.size} operations above that answer ${absent.groups.map((g) => g.status).join(' or ')} to a valid call: they need pages those operations did not give`);
      for (const skip of skips) lines.push(`  ${skip.ids.length} × ${shortText(skip.reason, 300)}: ${abbreviate(skip.ids)}`);
      lines.push('');
    }
    if (summary.scope) lines.push(...scopeSection(summary.scope), '');
    for (const file of this.ctx.artifacts) lines.push(`report: ${file}`);
    const folder = reproductionsLine(reproductions, this.ctx.outDir, this.ctx.invocation);
    if (folder) lines.push(folder);
    if (this.ctx.artifacts.length > 0) lines.push('');
    const banner = abortedBanner(summary);
    if (banner) lines.push(banner, '');
    if (summary.clockMoved) lines.push(`target clock: ${oneLine(summary.clockMoved.note)}`, '');
    const t = summary.totals;
    lines.push(`by level: MUST ${formatCounts(t.byLevel.MUST)}; SHOULD ${formatCounts(t.byLevel.SHOULD)}; INFO ${formatCounts(t.byLevel.INFO)}`);
    lines.push(`verdict: ${summary.verdict.status} (exit ${summary.verdict.exitCode}): ${oneLine(summary.verdict.reason)}; took ${formatDuration(summary.durationMs)}`);
    lines.push(finalLine(summary));
    this.print(lines);
  }
}

/**
 * "FAILURES (14)" where 14 is the count of the last line; when fewer entries are listed (the others are
 * dependants, under the check they follow from, or identical errors in one entry): "FAILURES (14; 3 listed
 * here, the others under the check they follow from)".
 */
function countedTitle(title: string, count: number): (shown: number) => string {
  return (shown) => (shown >= count ? `${title} (${count})` : `${title} (${count}; ${shown} listed here, the others under the check they follow from)`);
}

/** Printed under a root cause: how many depend on it, then one line each (failing ones first). */
const MAX_DEPENDANT_LINES = 40;
function dependantLines(dependants: readonly CheckResult[]): string[] {
  if (dependants.length === 0) return [];
  const shown = dependants.slice(0, MAX_DEPENDANT_LINES).map((r) => `      ${dependantLine(r)}`);
  const more = dependants.length > MAX_DEPENDANT_LINES ? [`      … and ${dependants.length - MAX_DEPENDANT_LINES} more (every one is in the json and html reports)`] : [];
  return [`    ${dependsOnIt(dependants.length)}:`, ...shown, ...more];
}

/** " (--only WH-HMAC-08; pulled in as positive control: WH-HMAC-01)": the flags, and the checks they did not name. */
function describeSelection(header: RunHeader): string {
  const parts: string[] = [];
  if (header.selection.only.length > 0) parts.push(`--only ${header.selection.only.join(',')}`);
  if (header.selection.skip.length > 0) parts.push(`--skip ${header.selection.skip.join(',')}`);
  const pulled = header.selection.pulledIn ?? [];
  const flags = parts.join(' ');
  // IDs, not a count: a per-operation control is one result per operation, and the last line counts results.
  const extra = pulled.length > 0 ? `pulled in as positive control${pulled.length === 1 ? '' : 's'}: ${abbreviate(pulled.map((check) => check.id))}` : '';
  const all = [flags, extra].filter(Boolean).join('; ');
  return all ? ` (${all})` : '';
}

function abbreviate(ids: string[], max = 8): string {
  return ids.length <= max ? ids.join(', ') : `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;
}

function describeFailure(result: CheckResult, maxExchanges = CONSOLE_EXCHANGES, rerun?: string, reproduction?: Reproduction): string[] {
  const lines = [`✗ ${resultKey(result)} [${result.level}] §${result.section}${result.ruling ? ` ruling ${result.ruling}` : ''}: ${result.text}`];
  if (result.failure) {
    lines.push(`    ${shortText(result.failure.message)}`);
    if (result.failure.expected) lines.push(`    expected: ${shortText(result.failure.expected)}`);
    if (result.failure.actual) lines.push(`    actual:   ${shortText(result.failure.actual)}`);
  }
  if (result.operation) lines.push(`    ${oneLine(sentPathLine(result.operation))}`);
  for (const observation of result.observations) lines.push(`    note: ${shortText(observation)}`);
  if (rerun) lines.push(`    rerun: ${rerun}`);
  for (const [label, text] of reproductionLines(result, reproduction)) lines.push(`    ${label}: ${oneLine(text)}`);
  // The last exchanges are the ones that showed the failure; earlier ones set it up.
  const shown = result.exchanges.slice(-maxExchanges);
  if (shown.length > 0) {
    lines.push(`    exchanges (${shown.length} of ${result.exchanges.length}):`);
    for (const exchange of shown) lines.push(...formatExchange(exchange, '      ', { bodyBytes: CONSOLE_BODY_BYTES }));
  }
  return lines;
}

/** One root cause for the operations that answer a valid call with the same 404 or 501, each listed once. */
function absentBlock(group: AbsentOperations, view: CauseView): string[] {
  const detail = absentDetailLines(group, view);
  return [`✗ ${oneLine(group.message)}`, ...detail.about.map((line) => `    ${shortText(line, 600)}`), ...detail.operations.map((line) => `      ${shortText(line, 300)}`)];
}

/**
 * The scope the run certifies: the line every report has, each operation not implemented with why, and for
 * a `--partial` run the profile snippet that pins what it found (valid JSON, every name escaped).
 */
function scopeSection(scope: RunScope): string[] {
  const lines = [`SCOPE: ${scopeLine(scope)}`];
  if (scope.notImplemented.length > 0) lines.push('  not implemented:', ...scope.notImplemented.map((entry) => `    ${shortText(notImplementedLine(entry), 300)}`));
  if (scope.sources.includes('--partial')) {
    lines.push('  to check exactly these operations in every later run, without --partial, put this in the profile (docs/checking.md):', ...scopeSnippet(scope).split('\n').map((line) => `  ${line}`));
  }
  return lines;
}
