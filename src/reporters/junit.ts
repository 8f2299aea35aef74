/**
 * `--reporter junit`: <out>/junit.xml. One <testsuite> per group, one <testcase> per check named by its ID
 * and sentence; failures carry expected/actual and the exchanges, harness errors are <error>, skips carry
 * their reason. SHOULD failures without --strict and INFO observations are reported as passing test cases
 * with <system-out>, so CI dashboards agree with the exit code.
 */
import type { CheckResult, EngineReporter, RunSummary } from '../engine/types.js';
import { writeReportFile, type ReporterContext } from './context.js';
import { failureKind, formatExchange, resultsByGroup } from './format.js';

export const JUNIT_REPORT_FILE = 'junit.xml';

/** XML 1.0 forbids most control characters even escaped; they are dropped. */
export function escapeXml(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function failureBody(result: CheckResult): string {
  const lines = [result.failure?.message ?? ''];
  if (result.failure?.expected) lines.push(`expected: ${result.failure.expected}`);
  if (result.failure?.actual) lines.push(`actual:   ${result.failure.actual}`);
  for (const observation of result.observations) lines.push(`note: ${observation}`);
  if (result.exchanges.length > 0) {
    lines.push('', 'exchanges:');
    for (const exchange of result.exchanges) lines.push(...formatExchange(exchange, '  '));
  }
  return lines.join('\n');
}

function testCase(result: CheckResult, strict: boolean): string {
  const open = `    <testcase name="${escapeXml(`${result.id} ${result.text}`)}" classname="access-conformance.${escapeXml(result.group)}" time="${seconds(result.durationMs)}">`;
  const inner: string[] = [];
  if (result.state === 'skipped') {
    inner.push(`      <skipped message="${escapeXml(result.reason ?? 'skipped')}"/>`);
  } else if (result.state === 'errored') {
    const error = result.harnessError;
    inner.push(`      <error type="${escapeXml(error?.code ?? 'INTERNAL')}" message="${escapeXml(error?.message ?? 'harness error')}">${escapeXml([error?.message, error?.hint ? `hint: ${error.hint}` : ''].filter(Boolean).join('\n'))}</error>`);
  } else if (result.state === 'failed') {
    const kind = failureKind(result, strict);
    if (kind === 'failure') {
      inner.push(`      <failure type="${result.level}" message="${escapeXml(result.failure?.message ?? 'failed')}">${escapeXml(failureBody(result))}</failure>`);
    } else {
      inner.push(`      <system-out>${escapeXml(`${kind} (${result.level}${result.expectedFailure ? ', in the baseline' : ''}): ${failureBody(result)}`)}</system-out>`);
    }
  }
  return inner.length === 0 ? `${open.slice(0, -1)}/>` : `${open}\n${inner.join('\n')}\n    </testcase>`;
}

export function renderJunit(summary: RunSummary): string {
  const strict = summary.header.strict;
  const suites: string[] = [];
  let failures = 0;
  let errors = 0;
  for (const [group, results] of resultsByGroup(summary.results)) {
    const groupFailures = results.filter((r) => r.state === 'failed' && failureKind(r, strict) === 'failure').length;
    const groupErrors = results.filter((r) => r.state === 'errored').length;
    const skipped = results.filter((r) => r.state === 'skipped').length;
    const time = results.reduce((sum, r) => sum + r.durationMs, 0);
    failures += groupFailures;
    errors += groupErrors;
    suites.push(
      `  <testsuite name="${escapeXml(group)}" tests="${results.length}" failures="${groupFailures}" errors="${groupErrors}" skipped="${skipped}" time="${seconds(time)}" timestamp="${escapeXml(summary.header.date.replace(/\.\d+Z$/, ''))}">\n` +
        results.map((r) => testCase(r, strict)).join('\n') +
        '\n  </testsuite>',
    );
  }
  const { header } = summary;
  const name = `access-conformance: ${header.profileName}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(name)}" tests="${summary.results.length}" failures="${failures}" errors="${errors + summary.harnessErrors.length}" time="${seconds(summary.durationMs)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

export class JunitReporter implements EngineReporter {
  constructor(private readonly ctx: ReporterContext) {}

  async onRunEnd(summary: RunSummary): Promise<void> {
    await writeReportFile(this.ctx, JUNIT_REPORT_FILE, summary, renderJunit);
  }
}
