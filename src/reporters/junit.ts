/**
 * `--reporter junit`: <out>/junit.xml, valid against the Jenkins xunit plugin's JUnit schema. One
 * <testsuite> per group with the run's <properties> (seed, target, tool and catalogue version, profile);
 * one <testcase> per check named "ID: sentence" (testCaseName), with its ID, level and section opening its
 * <system-out>, and a failure's rerun line and reproduction in its body. MUST failures (and SHOULD with --strict) are
 * <failure>, harness errors <error>, skips <skipped message="reason">. SHOULD failures without --strict
 * are <skipped message="warning"> and baseline failures <skipped message="expected failure">: they do
 * not fail the run, and CI dashboards then agree with the exit code while still showing them apart from
 * passes. INFO observations pass, with the observation in <system-out>. A run that stopped early adds a
 * `run` testsuite whose testcase carries the reason as <error>, and an <error> testcase for every
 * selected check it never reached.
 */
import type { CheckResult, EngineReporter, RunSummary } from '../engine/types.js';
import { operationLabel, resultKey, sentPathLine } from '../engine/result-key.js';
import { writeReportFile, type ReporterContext } from './context.js';
import { reproductionLines, reproductionsFor, type Reproduction } from './reproductions.js';
import { rerunFor, type RunInvocation } from './rerun.js';
import { escapeMarkup, shortText } from '../escape.js';
import { displayState, finalLine, formatExchange, resultsByGroup } from './format.js';
import { absentView, blockedReason, causeView, dependantsOf, dependsOnIt, notImplementedLine, pulledInLine, rootCausesFirst, scopeLine, uniformAnswerLines, type AbsentView, type CauseView } from './root-cause-order.js';
import { JUNIT_REPORT_FILE } from './file-names.js';

const JUNIT_EXCHANGES = 3;

const e = escapeMarkup;

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

function failureBody(result: CheckResult, rerun?: string, reproduction?: Reproduction): string {
  const lines = [`${resultKey(result)} [${result.level}] §${result.section}: ${result.text}`, '', shortText(result.failure?.message ?? '', 4096)];
  if (result.failure?.expected) lines.push(`expected: ${shortText(result.failure.expected, 4096)}`);
  if (result.failure?.actual) lines.push(`actual:   ${shortText(result.failure.actual, 4096)}`);
  if (result.operation) lines.push(sentPathLine(result.operation));
  for (const observation of result.observations) lines.push(`note: ${shortText(observation, 4096)}`);
  const reproducing = reproductionLines(result, reproduction);
  if (rerun || reproducing.length > 0) lines.push('');
  if (rerun) lines.push(`rerun: ${rerun}`);
  for (const [label, text] of reproducing) lines.push(`${label}: ${text}`);
  // The last exchanges showed the failure; report.json and report.html keep every one.
  const shown = result.exchanges.slice(-JUNIT_EXCHANGES);
  if (shown.length > 0) {
    lines.push('', `exchanges (${shown.length} of ${result.exchanges.length}):`);
    for (const exchange of shown) lines.push(...formatExchange(exchange, '  '));
  }
  return lines.join('\n');
}

/**
 * A root cause's message says how many depend on it; a dependant's, which root cause it follows from; a
 * check the selection did not name, that it was pulled in and for which checks.
 */
function causeNote(result: CheckResult, view: CauseView, absent: AbsentView): string {
  const pulled = pulledInLine(result);
  const dependants = dependantsOf(view, resultKey(result)).length;
  const root = view.rootOf.get(resultKey(result));
  const cause = dependants > 0 ? `root cause: ${dependsOnIt(dependants)}` : root ? `follows from ${root}` : '';
  // One of the operations that answer a valid call with the same 404 or 501: the one root cause they share.
  const group = absent.groups.find((g) => g.roots.includes(resultKey(result)));
  const shared = group ? `one root cause with the others: ${group.message} (property absent-operations.${group.status} lists them)` : '';
  const parts = [pulled, shared, cause].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

/**
 * A test's name as CI test pages show it: "ID: sentence" (the sentence cut at 200 bytes), so a reader sees
 * what failed without the catalogue at hand; the ID leads, so a search by ID still finds its history.
 */
export function testCaseName(result: Pick<CheckResult, 'id' | 'text'>): string {
  return `${resultKey(result)}: ${shortText(result.text, 200)}`;
}

/**
 * The check's ID, level and section as `name: value` lines opening its <system-out>: the Jenkins xunit
 * schema the file is validated against has no <properties> inside a <testcase>, so they cannot go there.
 */
function caseProperties(result: CheckResult): string {
  const pulled = pulledInLine(result);
  return [`id: ${resultKey(result)}`, `level: ${result.level}`, `section: ${result.section}${result.ruling ? ` (ruling ${result.ruling})` : ''}`, ...(pulled ? [`selection: ${pulled}`] : []), ''].join('\n');
}

function testCase(result: CheckResult, strict: boolean, view: CauseView, absent: AbsentView, rerun?: string, reproduction?: Reproduction): string {
  const open = `    <testcase name="${e(testCaseName(result))}" classname="access-conformance.${e(result.group)}" time="${seconds(result.durationMs)}">`;
  const inner: string[] = [];
  const state = displayState(result, strict);
  const note = causeNote(result, view, absent);
  if (state === 'skipped') {
    inner.push(`      <skipped message="${e(result.reason ?? 'skipped')}"/>`);
  } else if (state === 'blocked') {
    // Not a pass and not a failure of its own: the refusal proves nothing while its control fails.
    inner.push(`      <skipped message="${e(shortText(blockedReason(result)) + note)}"/>`);
  } else if (state === 'errored') {
    const error = result.harnessError;
    inner.push(
      `      <error type="${e(error?.code ?? 'INTERNAL')}" message="${e(shortText(error?.message ?? 'harness error') + note)}">${e([error?.message, error?.hint ? `hint: ${error.hint}` : ''].filter(Boolean).join('\n'))}</error>`,
    );
  } else if (state === 'failed') {
    inner.push(`      <failure type="${result.level}" message="${e(shortText(result.failure?.message ?? 'failed') + note)}">${e(failureBody(result, rerun, reproduction))}</failure>`);
  } else if (state === 'warning' || state === 'expected') {
    const message = state === 'warning' ? 'warning' : 'expected failure';
    inner.push(`      <skipped message="${message}">${e(failureBody(result, rerun, reproduction))}</skipped>`);
  }
  const out = caseProperties(result) + (state === 'observation' ? `observation (INFO): ${failureBody(result)}` : `${result.level} §${result.section}: ${result.text}`);
  inner.push(`      <system-out>${e(out)}</system-out>`);
  return `${open}\n${inner.join('\n')}\n    </testcase>`;
}

const COUNT_NAMES = ['passed', 'failed', 'blocked', 'errored', 'skipped', 'warnings', 'observations', 'expectedFailures', 'pulledIn'] as const;

function properties(summary: RunSummary): string {
  const { header } = summary;
  const entries: Array<[string, string]> = [
    ['seed', header.seed],
    ['target', header.target],
    ['profile', header.profileName],
    ['tool', header.tool.name],
    ['tool.version', header.tool.version],
    ['catalogue.version', header.catalogueVersion],
    ['strict', String(header.strict)],
    ['verdict', summary.verdict.status],
    ['exit-code', String(summary.verdict.exitCode)],
    // The run's one set of counts (engine/counts.ts), the same as every other reporter's: JUnit's own
    // failures/errors/skipped attributes cannot hold blocked, warnings or expected failures apart.
    ['counts', finalLine(summary)],
    ...COUNT_NAMES.map((name): [string, string] => [`count.${name}`, String(summary.totals[name] ?? 0)]),
  ];
  // Operations that answer a valid call with the same 404 or 501 (one root cause each status), and the scope.
  for (const group of summary.absentOperations ?? []) entries.push([`absent-operations.${group.status}`, `${group.message}: ${group.operations.map((op) => operationLabel(op)).join('; ')}`]);
  if (summary.scope) {
    entries.push(['scope', scopeLine(summary.scope)]);
    if (summary.scope.notImplemented.length > 0) entries.push(['scope.not-implemented', summary.scope.notImplemented.map((entry) => notImplementedLine(entry)).join('; ')]);
  }
  if (header.selection.only.length > 0) entries.push(['only', header.selection.only.join(',')]);
  if (header.selection.skip.length > 0) entries.push(['skip', header.selection.skip.join(',')]);
  // The checks the selection did not name, each with what it controls: the testcases carry them too.
  for (const check of header.selection.pulledIn ?? []) entries.push([`pulled-in.${check.id}`, `positive control of ${check.controlOf.join(',')}`]);
  return `    <properties>\n${entries.map(([name, value]) => `      <property name="${e(name)}" value="${e(value)}"/>`).join('\n')}\n    </properties>`;
}

function suite(name: string, cases: string[], counts: { failures: number; errors: number; skipped: number }, ms: number, summary: RunSummary): string {
  const timestamp = e(summary.header.date.replace(/\.\d+Z$/, ''));
  return (
    `  <testsuite name="${e(name)}" tests="${cases.length}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${seconds(ms)}" timestamp="${timestamp}">\n` +
    `${properties(summary)}\n${cases.join('\n')}\n  </testsuite>`
  );
}

/** The testsuite of a run that stopped early: the reason, and the selected checks it never reached. */
function abortedSuite(summary: RunSummary): { xml: string; tests: number; errors: number } | undefined {
  const aborted = summary.aborted;
  if (!aborted) return undefined;
  const seen = new Set(summary.results.map((r) => resultKey(r)));
  const unfinished = summary.header.selectedIds.filter((id) => !seen.has(id));
  const reason = `${aborted.signal ? `${aborted.signal}: ` : ''}${aborted.message}`;
  const cases = [
    `    <testcase name="run" classname="access-conformance.run" time="${seconds(summary.durationMs)}">\n      <error type="${e(aborted.code)}" message="${e(`run ${aborted.signal ? `interrupted (exit ${summary.verdict.exitCode})` : 'aborted'}: ${reason}`)}">${e(`The run stopped before its end: ${reason}. ${unfinished.length} selected checks were not reached.`)}</error>\n    </testcase>`,
    ...unfinished.map(
      (id) => `    <testcase name="${e(id)}" classname="access-conformance.not-run" time="0.000">\n      <error type="${e(aborted.code)}" message="${e(`not run: ${reason}`)}"/>\n    </testcase>`,
    ),
  ];
  return { xml: suite('run', cases, { failures: 0, errors: cases.length, skipped: 0 }, 0, summary), tests: cases.length, errors: cases.length };
}

/** The first testsuite of a run whose requests all got one answer: the notice as an error. */
function uniformSuite(summary: RunSummary): string | undefined {
  if (!summary.uniformAnswer) return undefined;
  const [first, hint] = uniformAnswerLines(summary);
  const testcase = `    <testcase name="uniform-answer" classname="access-conformance.run" time="0.000">\n      <error type="UNIFORM_ANSWER" message="${e(first!)}">${e(`${first}\n${hint}`)}</error>\n    </testcase>`;
  return suite('run', [testcase], { failures: 0, errors: 1, skipped: 0 }, 0, summary);
}

export function renderJunit(summary: RunSummary, invocation?: RunInvocation, reproductions: ReadonlyMap<string, Reproduction> = new Map()): string {
  const strict = summary.header.strict;
  const suites: string[] = [];
  let tests = summary.results.length;
  let failures = 0;
  let errors = summary.harnessErrors.length;
  const uniform = uniformSuite(summary);
  if (uniform) {
    suites.push(uniform);
    tests += 1;
    errors += 1;
  }
  // Root cause first: the groups holding root causes first, and within a group its root causes first.
  const view = causeView(summary);
  const absent = absentView(summary);
  for (const [group, results] of resultsByGroup(rootCausesFirst(summary.results, view))) {
    const states = results.map((r) => displayState(r, strict));
    const counts = {
      failures: states.filter((s) => s === 'failed').length,
      errors: states.filter((s) => s === 'errored').length,
      skipped: states.filter((s) => s === 'skipped' || s === 'blocked' || s === 'warning' || s === 'expected').length,
    };
    failures += counts.failures;
    errors += counts.errors;
    suites.push(suite(group, results.map((r) => testCase(r, strict, view, absent, rerunFor(invocation, summary.header, resultKey(r)), reproductions.get(resultKey(r)))), counts, results.reduce((sum, r) => sum + r.durationMs, 0), summary));
  }
  const aborted = abortedSuite(summary);
  if (aborted) {
    suites.push(aborted.xml);
    tests += aborted.tests;
    errors += aborted.errors;
  }
  const name = `access-conformance: ${summary.header.profileName}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${e(name)}" tests="${tests}" failures="${failures}" errors="${errors}" time="${seconds(summary.durationMs)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

export class JunitReporter implements EngineReporter {
  /** Shows the exchanges of failed, errored and blocked checks only. */
  readonly readsPassedExchanges = false;
  constructor(private readonly ctx: ReporterContext) {}

  async onRunEnd(summary: RunSummary): Promise<void> {
    const reproductions = await reproductionsFor(summary, this.ctx);
    await writeReportFile(this.ctx, JUNIT_REPORT_FILE, summary, (redacted) => renderJunit(redacted, this.ctx.invocation, reproductions));
  }
}
