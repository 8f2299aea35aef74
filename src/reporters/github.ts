/**
 * `--reporter github`: GitHub Actions workflow commands on stdout. One `::error` annotation per distinct
 * failure (identical ones grouped, with their IDs), `::warning` for SHOULD failures without --strict and
 * for a run that stopped early, and each failure's detail in a collapsible `::group::` of the log. The
 * step summary stays with the markdown reporter. Data is encoded per GitHub's workflow-command rules and
 * every line of target text is prefixed, so a body cannot issue a command of its own (`::add-mask::`,
 * `::stop-commands::`) or print a fake verdict line.
 */
import type { EngineReporter, RunSummary } from '../engine/types.js';
import { redactDeep, type ReporterContext } from './context.js';
import { curlCommand, reproducingExchange } from './curl.js';
import { ghData, ghProperty, oneLine, shortText, visibleControls } from '../escape.js';
import { abortedBanner, formatExchange } from './format.js';
import { acceptedInsteadLine, causeView, dependantLine, dependsOnIt, groupRootCauses, uniformAnswerLines, type CauseGroup, type CauseView } from './root-cause-order.js';

/** GitHub shows at most 10 error and 10 warning annotations per step; more are noise in the log. */
const MAX_ANNOTATIONS = 50;

function annotation(group: CauseGroup, view: CauseView): string {
  const command = group.state === 'warning' || group.state === 'blocked' ? 'warning' : 'error';
  const ids = group.results.map((r) => r.id);
  const first = group.results[0]!;
  const title = ids.length === 1 ? `${first.id} [${first.level}]` : `${ids.length} checks: ${ids.slice(0, 6).join(' ')}${ids.length > 6 ? ' …' : ''}`;
  const detail = [shortText(group.title)];
  if (ids.length === 1) detail.push(`requirement (§${first.section}): ${first.text}`);
  else detail.push(`checks: ${ids.join(', ')}`);
  if (first.failure?.expected) detail.push(`expected: ${shortText(first.failure.expected)}`);
  if (first.failure?.actual) detail.push(`actual: ${shortText(first.failure.actual)}`);
  const accepted = group.results.length === 1 ? acceptedInsteadLine(view, first.id) : undefined;
  if (accepted) detail.push(accepted);
  if (group.dependants.length > 0) detail.push(`root cause: ${dependsOnIt(group.dependants.length)} (${group.dependants.slice(0, 12).map((r) => r.id).join(', ')}${group.dependants.length > 12 ? ' …' : ''}); see the reports`);
  return `::${command} title=${ghProperty(`access-conformance ${title}`)}::${ghData(detail.join('\n'))}`;
}

export function renderGithub(summary: RunSummary): string {
  const strict = summary.header.strict;
  // Root cause first: one annotation per root cause, its dependants named in it and listed in its log group.
  const view = causeView(summary);
  const groups = groupRootCauses(summary, strict, ['failed', 'errored', 'blocked', 'warning'], view);
  const lines: string[] = [];
  const uniform = uniformAnswerLines(summary);
  if (uniform.length > 0) lines.push(`::error title=${ghProperty('access-conformance: one answer for everything')}::${ghData(uniform.join('\n'))}`);
  const banner = abortedBanner(summary);
  if (banner) lines.push(`::error title=${ghProperty(`access-conformance: run ${summary.aborted?.signal ? 'interrupted' : 'aborted'}`)}::${ghData(banner)}`);
  for (const group of groups.slice(0, MAX_ANNOTATIONS)) lines.push(annotation(group, view));
  if (groups.length > MAX_ANNOTATIONS) lines.push(`::warning title=access-conformance::${ghData(`${groups.length - MAX_ANNOTATIONS} more distinct failures: see the reports`)}`);
  for (const group of groups) {
    const first = group.results[0]!;
    const name = group.results.length === 1 ? `${first.id}: ${shortText(group.title, 200)}` : `${group.results.length} × ${shortText(group.title, 200)}`;
    // A group's name is a command's data: encoded like one.
    lines.push(`::group::${ghData(name.slice(0, 200))}`);
    lines.push(`  ${group.state} · ${group.results.map((r) => r.id).join(', ')}`);
    if (group.results.length === 1) lines.push(`  ${first.level} §${first.section}: ${first.text}`);
    if (group.dependants.length > 0) lines.push(`  ${dependsOnIt(group.dependants.length)}:`, ...group.dependants.map((r) => `    ${oneLine(dependantLine(r))}`));
    const exchange = reproducingExchange(first.exchanges);
    if (exchange) {
      lines.push(`  reproduce: ${oneLine(curlCommand(exchange))}`);
      lines.push(...formatExchange(exchange, '  ', { bodyBytes: 1024 }));
    }
    lines.push('::endgroup::');
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

export class GithubReporter implements EngineReporter {
  constructor(private readonly ctx: ReporterContext) {}

  onRunEnd(summary: RunSummary): void {
    // Redacted before encoding: `%3A` in a title would hide a secret's shape from a pass over the output.
    const text = renderGithub(redactDeep(summary, (value) => this.ctx.scrub(this.ctx.redact(value))));
    if (text) this.ctx.stdout.write(visibleControls(this.ctx.scrub(this.ctx.redact(text))));
  }
}
