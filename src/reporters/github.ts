/**
 * `--reporter github`: GitHub Actions workflow commands on stdout. One `::error` annotation per distinct
 * failure (identical ones grouped, with their IDs), `::warning` for SHOULD failures without --strict and
 * for a run that stopped early, and each failure's detail in a collapsible `::group::` of the log. The
 * step summary stays with the markdown reporter. Data is encoded per GitHub's workflow-command rules and
 * every line of target text is prefixed, so a body cannot issue a command of its own (`::add-mask::`,
 * `::stop-commands::`) or print a fake verdict line.
 */
import type { EngineReporter, RunSummary } from '../engine/types.js';
import { resultKey } from '../engine/result-key.js';
import { redactDeep, type ReporterContext } from './context.js';
import { decisiveExchange, reproductionLines, reproductionsFor, type Reproduction } from './reproductions.js';
import { rerunFor, type RunInvocation } from './rerun.js';
import { ghData, ghProperty, oneLine, shortText, visibleControls } from '../escape.js';
import { abortedBanner, formatExchange } from './format.js';
import { absentDetailLines, absentView, notImplementedLine, scopeLine, acceptedInsteadLine, causeView, dependantLine, dependsOnIt, groupRootCauses, pulledInLine, uniformAnswerLines, type CauseGroup, type CauseView } from './root-cause-order.js';

/**
 * GitHub shows at most 10 error and 10 warning annotations per step and drops the rest silently: past the
 * cap, one notice says how many more there are and where they are.
 */
export const MAX_ERROR_ANNOTATIONS = 10;
export const MAX_WARNING_ANNOTATIONS = 10;

function annotation(group: CauseGroup, view: CauseView): string {
  const command = group.state === 'warning' || group.state === 'blocked' ? 'warning' : 'error';
  const ids = group.results.map((r) => resultKey(r));
  const first = group.results[0]!;
  const title = ids.length === 1 ? `${resultKey(first)} [${first.level}]` : `${ids.length} checks: ${ids.slice(0, 6).join(' ')}${ids.length > 6 ? ' …' : ''}`;
  const detail = [shortText(group.title)];
  const pulled = ids.length === 1 ? pulledInLine(first) : undefined;
  if (pulled) detail.push(`${pulled} (the selection did not name it)`);
  if (ids.length === 1) detail.push(`requirement (§${first.section}): ${first.text}`);
  else detail.push(`checks: ${ids.join(', ')}`);
  if (first.failure?.expected) detail.push(`expected: ${shortText(first.failure.expected)}`);
  if (first.failure?.actual) detail.push(`actual: ${shortText(first.failure.actual)}`);
  const accepted = group.results.length === 1 ? acceptedInsteadLine(view, resultKey(first)) : undefined;
  if (accepted) detail.push(accepted);
  if (group.dependants.length > 0) detail.push(`root cause: ${dependsOnIt(group.dependants.length)} (${group.dependants.slice(0, 12).map((r) => resultKey(r)).join(', ')}${group.dependants.length > 12 ? ' …' : ''}); see the reports`);
  return `::${command} title=${ghProperty(`access-conformance ${title}`)}::${ghData(detail.join('\n'))}`;
}

/**
 * The annotations within GitHub's caps, in the groups' order (root causes first): the run-level errors
 * (`leading`: one answer for everything, a run that stopped early) count among the 10 errors; one notice
 * for whatever did not fit.
 */
export function cappedAnnotations(groups: readonly CauseGroup[], leading: readonly string[], annotate: (group: CauseGroup) => string): string[] {
  const errors = groups.filter((group) => group.state !== 'warning');
  const warnings = groups.filter((group) => group.state === 'warning');
  const errorRoom = Math.max(0, MAX_ERROR_ANNOTATIONS - leading.length);
  const lines = [...leading.slice(0, MAX_ERROR_ANNOTATIONS), ...errors.slice(0, errorRoom).map(annotate), ...warnings.slice(0, MAX_WARNING_ANNOTATIONS).map(annotate)];
  const left = [
    errors.length > errorRoom ? `${errors.length - errorRoom} more failures` : '',
    warnings.length > MAX_WARNING_ANNOTATIONS ? `${warnings.length - MAX_WARNING_ANNOTATIONS} more warnings` : '',
  ].filter(Boolean);
  if (left.length > 0) {
    const checks = [...errors.slice(errorRoom), ...warnings.slice(MAX_WARNING_ANNOTATIONS)].reduce((sum, group) => sum + group.results.length, 0);
    lines.push(`::notice title=access-conformance::${ghData(`${left.join(' and ')} (${checks} checks) past GitHub's 10 annotations of a kind: every one is in the log groups below, the step summary and the reports`)}`);
  }
  return lines;
}

export function renderGithub(summary: RunSummary, invocation?: RunInvocation, reproductions: ReadonlyMap<string, Reproduction> = new Map()): string {
  const strict = summary.header.strict;
  // Root cause first: one annotation per root cause, its dependants named in it and listed in its log group.
  const view = causeView(summary);
  // Operations that answer a valid call with the same 404 or 501: one annotation each status, listing them.
  const absent = absentView(summary);
  const groups = groupRootCauses(summary, strict, ['failed', 'errored', 'blocked', 'warning'], view, absent.grouped);
  const lines: string[] = [];
  const leading: string[] = absent.groups.map((group) => {
    const detail = absentDetailLines(group, view);
    return `::error title=${ghProperty(`access-conformance: ${group.operations.length} operations answer ${group.status}`)}::${ghData([group.message, ...detail.about, ...detail.operations].join('\n'))}`;
  });
  if (summary.scope) {
    const scope = summary.scope;
    lines.push(`::notice title=${ghProperty('access-conformance: scope')}::${ghData([`Scope: ${scopeLine(scope)}; a certificate of these operations only.`, ...scope.notImplemented.map((entry) => notImplementedLine(entry))].join('\n'))}`);
  }
  const uniform = uniformAnswerLines(summary);
  if (uniform.length > 0) leading.push(`::error title=${ghProperty('access-conformance: one answer for everything')}::${ghData(uniform.join('\n'))}`);
  const banner = abortedBanner(summary);
  if (banner) leading.push(`::error title=${ghProperty(`access-conformance: run ${summary.aborted?.signal ? 'interrupted' : 'aborted'}`)}::${ghData(banner)}`);
  lines.push(...cappedAnnotations(groups, leading, (group) => annotation(group, view)));
  for (const group of groups) {
    const first = group.results[0]!;
    const name = group.results.length === 1 ? `${resultKey(first)}: ${shortText(group.title, 200)}` : `${group.results.length} × ${shortText(group.title, 200)}`;
    // A group's name is a command's data: encoded like one.
    lines.push(`::group::${ghData(name.slice(0, 200))}`);
    lines.push(`  ${group.state} · ${group.results.map((r) => resultKey(r)).join(', ')}`);
    if (group.results.length === 1) lines.push(`  ${first.level} §${first.section}: ${first.text}`);
    const pulled = group.results.length === 1 ? pulledInLine(first) : undefined;
    if (pulled) lines.push(`  ${pulled}`);
    const rerun = rerunFor(invocation, summary.header, resultKey(first));
    if (rerun) lines.push(`  rerun: ${rerun}`);
    if (group.dependants.length > 0) lines.push(`  ${dependsOnIt(group.dependants.length)}:`, ...group.dependants.map((r) => `    ${oneLine(dependantLine(r))}`));
    for (const [label, text] of reproductionLines(first, reproductions.get(resultKey(first)))) lines.push(`  ${label}: ${oneLine(text)}`);
    const exchange = decisiveExchange(first.exchanges);
    if (exchange) lines.push(...formatExchange(exchange, '  ', { bodyBytes: 1024 }));
    lines.push('::endgroup::');
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

export class GithubReporter implements EngineReporter {
  /** Shows the exchanges of failed, errored and blocked checks only. */
  readonly readsPassedExchanges = false;
  constructor(private readonly ctx: ReporterContext) {}

  async onRunEnd(summary: RunSummary): Promise<void> {
    const reproductions = await reproductionsFor(summary, this.ctx);
    // Redacted before encoding: `%3A` in a title would hide a secret's shape from a pass over the output.
    const text = renderGithub(redactDeep(summary, (value) => this.ctx.scrub(this.ctx.redact(value))), this.ctx.invocation, reproductions);
    if (text) this.ctx.stdout.write(visibleControls(this.ctx.scrub(this.ctx.redact(text))));
  }
}
