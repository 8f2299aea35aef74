/**
 * The report files against their contracts: junit.xml of a passing, a failing and an aborted run against
 * the Jenkins xunit schema (xmllint), report.json of the same runs against schemas/report.schema.json
 * (ajv), the HAR's shape, and what a run that stopped early shows in each report.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/engine/types.js';
import { abortedVerdict } from '../../src/engine/verdict.js';
import { renderGithub } from '../../src/reporters/github.js';
import { toHar } from '../../src/reporters/har.js';
import { renderHtml } from '../../src/reporters/html.js';
import { toJsonReport } from '../../src/reporters/json-report.js';
import { renderJunit } from '../../src/reporters/junit.js';
import { renderMarkdown } from '../../src/reporters/markdown.js';
import { exchange, result, summary } from '../engine/support/fixtures.js';
import { hasXmllint, JENKINS_XSD, XMLLINT_MISSING, reportValidator, xmllint } from './validators.js';
import { skipUnless } from '../support/capabilities.js';

function passingRun(): RunSummary {
  return summary([result('TOK-01', 'passed', 'MUST', { exchanges: [exchange()] }), result('TOK-02', 'passed', 'SHOULD'), result('WH-HMAC-01', 'skipped')]);
}

function failingRun(): RunSummary {
  return summary([
    result('TOK-01', 'failed', 'MUST', { exchanges: [exchange({ status: 200 })] }),
    result('TOK-02', 'failed', 'SHOULD'),
    result('TOK-03', 'failed', 'INFO'),
    result('TOK-04', 'failed', 'MUST', { expectedFailure: true }),
    result('WH-HMAC-01', 'errored', 'MUST', { exchanges: [{ ...exchange(), response: undefined, error: { code: 'TIMEOUT', message: 'no answer' } }] }),
    result('WH-HMAC-02', 'passed'),
  ]);
}

/** The target stopped answering after three checks: the rest were never reached; one errored with the reason. */
function abortedRun(): RunSummary {
  const run = summary([
    result('TOK-01', 'passed'),
    result('TOK-02', 'failed'),
    result('TOK-03', 'errored', 'MUST', { harnessError: { code: 'TARGET_UNREACHABLE', message: 'connection refused' } }),
  ]);
  run.header.selectedIds = ['TOK-01', 'TOK-02', 'TOK-03', 'TOK-04', 'WH-HMAC-01'];
  run.header.selection.selected = 5;
  run.aborted = { code: 'TARGET_UNREACHABLE', message: 'gave up: 5 requests in a row could not connect' };
  run.verdict = abortedVerdict(run.aborted);
  return run;
}

/** SIGTERM after three checks: the same, but the verdict is interrupted with the code the process ends with. */
function interruptedRun(): RunSummary {
  const run = abortedRun();
  run.results[2]!.harnessError = { code: 'INTERRUPTED', message: 'the run was interrupted by SIGTERM' };
  run.aborted = { code: 'INTERRUPTED', message: 'the run was interrupted by SIGTERM', signal: 'SIGTERM' };
  run.verdict = abortedVerdict(run.aborted);
  return run;
}

const RUNS: Array<[string, () => RunSummary]> = [
  ['passing', passingRun],
  ['failing', failingRun],
  ['aborted', abortedRun],
  ['interrupted', interruptedRun],
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-report-files-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('junit.xml against the Jenkins xunit schema', () => {
  for (const [name, run] of RUNS) {
    it(`a ${name} run validates`, async (ctx) => {
      skipUnless(ctx, 'xmllint', hasXmllint(), XMLLINT_MISSING);
      const path = join(dir, `${name}.junit.xml`);
      await writeFile(path, renderJunit(run()));
      expect(xmllint(['--noout', '--schema', JENKINS_XSD, path])).toBe('');
    });
  }

  it('the schema rejects what it should (a testcase without a name), so the validations above can fail', async (ctx) => {
    skipUnless(ctx, 'xmllint', hasXmllint(), XMLLINT_MISSING);
    const path = join(dir, 'broken.junit.xml');
    await writeFile(path, renderJunit(passingRun()).replace(/<testcase name="TOK-01[^"]*" /, '<testcase '));
    expect(() => xmllint(['--noout', '--schema', JENKINS_XSD, path])).toThrow(/name.*required|required.*name/i);
  });

  it('an aborted run: an error testcase naming the reason, and one per selected check never reached', () => {
    const xml = renderJunit(abortedRun());
    expect(xml).toMatch(/<testsuite name="run" tests="3" failures="0" errors="3"/);
    expect(xml).toContain('<error type="TARGET_UNREACHABLE" message="run aborted: gave up: 5 requests in a row could not connect">');
    expect(renderJunit(interruptedRun())).toContain('<error type="INTERRUPTED" message="run interrupted (exit 143): SIGTERM: the run was interrupted by SIGTERM">');
    expect(renderJunit(interruptedRun())).toContain('<property name="exit-code" value="143"/>');
    expect(xml).toContain('<testcase name="TOK-04" classname="access-conformance.not-run" time="0.000">');
    expect(xml).toContain('<testcase name="WH-HMAC-01" classname="access-conformance.not-run"');
    expect(xml).toMatch(/<testsuites [^>]*tests="6" failures="1" errors="4"/);
  });

  it('SHOULD failures are skipped with message "warning", baseline failures "expected failure", INFO passes', () => {
    const xml = renderJunit(failingRun());
    expect(xml).toMatch(/<testcase name="TOK-02: [^"]*"[^>]*>\n\s*<skipped message="warning">/);
    expect(xml).toMatch(/<testcase name="TOK-04: [^"]*"[^>]*>\n\s*<skipped message="expected failure">/);
    expect(xml).toMatch(/<testcase name="TOK-03: [^"]*"[^>]*>\n\s*<system-out>id: TOK-03\nlevel: INFO\nsection: [^\n]*\nobservation \(INFO\)/);
    expect(xml).toMatch(/<testsuite name="tokens" tests="4" failures="1" errors="0" skipped="2"/);
  });
});

describe('report.json against schemas/report.schema.json', () => {
  it('passing, failing, aborted and interrupted runs validate; aborted is "error" (exit 2), interrupted says so with 143', async () => {
    const validate = await reportValidator();
    for (const [name, run] of RUNS) expect(validate(JSON.parse(JSON.stringify(toJsonReport(run())))), name).toEqual([]);
    const aborted = toJsonReport(abortedRun());
    expect(aborted.verdict).toMatchObject({ status: 'error', exitCode: 2, code: 'TARGET_UNREACHABLE' });
    expect(aborted.aborted).toEqual({ code: 'TARGET_UNREACHABLE', message: 'gave up: 5 requests in a row could not connect' });
    const interrupted = toJsonReport(interruptedRun());
    expect(interrupted.verdict).toMatchObject({ status: 'interrupted', exitCode: 143, code: 'INTERRUPTED' });
    expect(interrupted.aborted).toEqual({ code: 'INTERRUPTED', message: 'the run was interrupted by SIGTERM', signal: 'SIGTERM' });
  });

  it('the schema rejects reports that break it (so the validation can fail)', async () => {
    const validate = await reportValidator();
    const report = JSON.parse(JSON.stringify(toJsonReport(failingRun())));
    expect(validate({ ...report, formatVersion: 3 })).not.toEqual([]);
    expect(validate({ ...report, verdict: { ...report.verdict, status: 'maybe' } })).not.toEqual([]);
    const noFailure = { ...report, results: [{ ...report.results[0], failure: undefined }] };
    expect(validate(JSON.parse(JSON.stringify(noFailure)))).not.toEqual([]);
    expect(validate({ ...report, verdict: { ...report.verdict, code: 'TIMEOUT' } })).not.toEqual([]);
  });
});

describe('an aborted run in the other reports', () => {
  it('markdown, html and github name the reason in a banner', () => {
    const run = abortedRun();
    expect(renderMarkdown(run)).toContain('> **RUN ABORTED \\(error\\[TARGET\\_UNREACHABLE\\]\\): gave up');
    expect(renderHtml(run)).toContain('<p class="banner" role="alert">RUN ABORTED (error[TARGET_UNREACHABLE]): gave up: 5 requests in a row could not connect.');
    expect(renderGithub(run)).toMatch(/^::error title=access-conformance%3A run aborted::RUN ABORTED \(error\[TARGET_UNREACHABLE\]\)/);
  });

  it('an interrupted run says interrupted, with the exit code the process ends with, in every report', () => {
    const run = interruptedRun();
    expect(renderMarkdown(run)).toContain('## ⚠️ access-conformance: interrupted (exit 143)');
    expect(renderMarkdown(run)).toContain('> **RUN INTERRUPTED \\(SIGTERM, exit 143\\)');
    expect(renderHtml(run)).toContain('<p class="verdict interrupted">interrupted (exit 143): the run was interrupted by SIGTERM before it finished');
    expect(renderHtml(run)).toContain('RUN INTERRUPTED (SIGTERM, exit 143)');
    expect(renderGithub(run)).toMatch(/^::error title=access-conformance%3A run interrupted::RUN INTERRUPTED \(SIGTERM, exit 143\)/);
    expect(renderJunit(run)).toContain('<property name="verdict" value="interrupted"/>');
    for (const text of [renderMarkdown(run), renderHtml(run), renderJunit(run)]) expect(text).not.toMatch(/exit 2\b/);
  });
});

describe('har', () => {
  it('HAR 1.2: every exchange of every check in time order, with its check named, an error as status 0', () => {
    const run = failingRun();
    run.results[5]!.exchanges = [{ ...exchange(), startedAt: -5, request: { ...exchange().request, url: 'http://127.0.0.1:1/api/v1/apps?page_size=2&owner=u1' } }];
    const har = toHar(run);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'access-conformance', version: '0.1.0' });
    expect(har.log.entries.map((entry) => entry.comment)).toEqual(['WH-HMAC-02: token: wrong secret', 'TOK-01: token: wrong secret', 'WH-HMAC-01: token: wrong secret']);
    const [first, , errored] = har.log.entries;
    expect(first!.request.queryString).toEqual([{ name: 'page_size', value: '2' }, { name: 'owner', value: 'u1' }]);
    expect(first!.request.postData).toEqual({ mimeType: 'application/x-www-form-urlencoded', text: 'grant_type=client_credentials' });
    expect(first!.response.content).toMatchObject({ size: 11, mimeType: 'application/json', text: '{"ok":true}' });
    expect(errored!.response).toMatchObject({ status: 0, _error: { code: 'TIMEOUT', message: 'no answer' } });
    expect(first!.startedDateTime).toBe(new Date(-5).toISOString());
  });
});
