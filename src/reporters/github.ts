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
import { abortedBanner, formatExchange, groupFailures, type FailureGroup } from './format.js';

/** GitHub shows at most 10 error and 10 warning annotations per step; more are noise in the log. */
const MAX_ANNOTATIONS = 50;

function annotation(group: FailureGroup): string {
  const command = group.state === 'warning' ? 'warning' : 'error';
  const ids = group.results.map((r) => r.id);
  const first = group.results[0]!;
  const title = ids.length === 1 ? `${first.id} [${first.level}]` : `${ids.length} checks: ${ids.slice(0, 6).join(' ')}${ids.length > 6 ? ' …' : ''}`;
  const detail = [shortText(group.title)];
  if (ids.length === 1) detail.push(`requirement (§${first.section}): ${first.text}`);
  else detail.push(`checks: ${ids.join(', ')}`);
  if (first.failure?.expected) detail.push(`expected: ${shortText(first.failure.expected)}`);
  if (first.failure?.actual) detail.push(`actual: ${shortText(first.failure.actual)}`);
  return `::${command} title=${ghProperty(`access-conformance ${title}`)}::${ghData(detail.join('\n'))}`;
}

export function renderGithub(summary: RunSummary): string {
  const strict = summary.header.strict;
  const groups = groupFailures(summary.results, strict, ['failed', 'errored', 'warning']);
  const lines: string[] = [];
  const banner = abortedBanner(summary);
  if (banner) lines.push(`::error title=${ghProperty(`access-conformance: run ${summary.aborted?.signal ? 'interrupted' : 'aborted'}`)}::${ghData(banner)}`);
  for (const group of groups.slice(0, MAX_ANNOTATIONS)) lines.push(annotation(group));
  if (groups.length > MAX_ANNOTATIONS) lines.push(`::warning title=access-conformance::${ghData(`${groups.length - MAX_ANNOTATIONS} more distinct failures: see the reports`)}`);
  for (const group of groups) {
    const first = group.results[0]!;
    const name = group.results.length === 1 ? `${first.id}: ${shortText(group.title, 200)}` : `${group.results.length} × ${shortText(group.title, 200)}`;
    // A group's name is a command's data: encoded like one.
    lines.push(`::group::${ghData(name.slice(0, 200))}`);
    lines.push(`  ${group.state} · ${group.results.map((r) => r.id).join(', ')}`);
    if (group.results.length === 1) lines.push(`  ${first.level} §${first.section}: ${first.text}`);
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
