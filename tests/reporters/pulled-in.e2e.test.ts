/**
 * A rerun keeps its root cause (issue 39). `run --fault hmac-decoded-key --only WH-HMAC-08` selects the
 * refusal check and pulls in its positive control WH-HMAC-01 (ruling 30), which the fault breaks: the
 * control is the root cause, WH-HMAC-08's acceptance of the decoded key follows from it. Every format
 * counts the two checks the console's header announces, and names WH-HMAC-01 as pulled in for WH-HMAC-08:
 * the console (header, failure entry, last line), report.json (valid against its schema), JUnit (valid
 * against the Jenkins XSD when xmllint is installed), the Markdown summary, the HTML page and the GitHub
 * annotations.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countsLine } from '../../src/engine/counts.js';
import type { JsonReport } from '../../src/reporters/json-report.js';
import { runCli, type CliResult } from '../cli/support.js';
import { hasXmllint, JENKINS_XSD, XMLLINT_MISSING, reportValidator, xmllint } from './validators.js';
import { skipUnless } from '../support/capabilities.js';

const PHRASE = 'pulled in as the positive control of WH-HMAC-08';

let work: string;
let out: string;
let run: CliResult;
let report: JsonReport;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ac-pulled-in-'));
  out = join(work, 'reports');
  run = await runCli(['run', '--fault', 'hmac-decoded-key', '--only', 'WH-HMAC-08', '--reporter', 'console,json,junit,markdown,html,github', '--out', out], { cwd: work, timeoutMs: 120_000 });
  report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as JsonReport;
}, 150_000);
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('run --fault hmac-decoded-key --only WH-HMAC-08: the control it pulls in is counted and named everywhere', () => {
  it('exits 1: the control failed, a MUST', () => {
    expect(run.code, run.stderr).toBe(1);
  });

  it('report.json: two results, the control marked pulled in and the root cause of WH-HMAC-08; valid against its schema', async () => {
    expect(report.selection).toMatchObject({ only: ['WH-HMAC-08'], selected: 2, pulledIn: [{ id: 'WH-HMAC-01', controlOf: ['WH-HMAC-08'] }] });
    expect(report.totals).toMatchObject({ selected: 2, failed: 2, pulledIn: 1 });
    expect(report.results.map((r) => [r.id, r.state, r.pulledIn?.controlOf])).toEqual([
      ['WH-HMAC-01', 'failed', ['WH-HMAC-08']],
      ['WH-HMAC-08', 'failed', undefined],
    ]);
    expect(report.results[1]).toMatchObject({ dependsOn: 'WH-HMAC-01', rootCause: 'WH-HMAC-01' });
    expect(report.rootCauses?.[0]).toMatchObject({ id: 'WH-HMAC-01', dependants: ['WH-HMAC-08'], acceptedInstead: ['WH-HMAC-08'] });
    expect(report.notes.join('\n')).toContain('WH-HMAC-01 as the positive control of WH-HMAC-08');
    expect((await reportValidator())(report)).toEqual([]);
  });

  it('console: the header, the failure entry and the last line agree on two checks, the control named', () => {
    const line = countsLine(report.totals);
    expect(line).toBe('0 passed, 2 failed, 0 blocked, 0 errored, 0 skipped (of 2 checks: 1 selected, 1 pulled in as a positive control)');
    expect(run.stdout).toMatch(/^ {2}selection 2 checks \(--only WH-HMAC-08; pulled in as positive control: WH-HMAC-01\)$/m);
    expect(run.stdout).toMatch(/^FAILURES \(2; 1 listed here, the others under the check they follow from\)$/m);
    // The root cause's entry says why it is in the run.
    const entry = run.stdout.slice(run.stdout.indexOf('✗ WH-HMAC-01'));
    expect(entry.split('\n').slice(0, 4).join('\n')).toContain(`    ${PHRASE}`);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(line);
  });

  it('JUnit: tests="2", the control\'s testcase names itself pulled in; the counts line is the same', async () => {
    const junit = await readFile(join(out, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites [^>]*tests="2" failures="2"/);
    expect(junit).toContain(`<property name="counts" value="${countsLine(report.totals)}"/>`);
    expect(junit).toContain('<property name="count.pulledIn" value="1"/>');
    expect(junit).toContain('<property name="pulled-in.WH-HMAC-01" value="positive control of WH-HMAC-08"/>');
    const control = /<testcase name="WH-HMAC-01: [^"]*"[^>]*>\n\s*<failure type="MUST" message="([^"]*)"/.exec(junit);
    expect(control?.[1]).toContain(`(${PHRASE}; root cause: 1 check depends on it)`);
    expect(junit).toContain(`selection: ${PHRASE}`);
  });

  it('JUnit: valid against the Jenkins xunit schema', (ctx) => {
    skipUnless(ctx, 'xmllint', hasXmllint(), XMLLINT_MISSING);
    expect(xmllint(['--noout', '--schema', JENKINS_XSD, join(out, 'junit.xml')])).toBe('');
  });

  it('Markdown: the counts line, the control in the root-cause table and in its block, named as pulled in', async () => {
    const md = await readFile(join(out, 'summary.md'), 'utf8');
    expect(md).toContain(`**${countsLine(report.totals)}**`);
    expect(md).toMatch(new RegExp(`^\\| WH-HMAC-01 \\| MUST \\| ❌ failed \\| .*\\*\\*\\(${PHRASE}; 1 check depends on it`, 'm'));
    expect(md).toContain(`#### WH-HMAC-01: `);
    expect(md).toContain(`- **${PHRASE}** (the selection did not name it)`);
    expect(md.trimEnd().split('\n').at(-1)).toBe(countsLine(report.totals));
  });

  it('HTML: the selection says 2 checks with the control pulled in; its row and body name it so', async () => {
    const html = await readFile(join(out, 'report.html'), 'utf8');
    expect(html).toContain('selection <b>2 checks --only WH-HMAC-08 (pulled in as positive control: WH-HMAC-01)</b>');
    expect(html).toContain(`— ${countsLine(report.totals)}</p>`);
    const row = html.slice(html.indexOf('<details class="check s-failed" id="WH-HMAC-01"'));
    expect(row.slice(0, row.indexOf('</summary>'))).toContain(`<span class="pulled">${PHRASE}</span>`);
    expect(html.match(/<details class="check /g)).toHaveLength(2);
  });

  it('GitHub: the control\'s annotation and log group name it pulled in', () => {
    const annotation = run.stdout.split('\n').find((line) => line.startsWith('::error title=access-conformance WH-HMAC-01 [MUST]::'));
    expect(annotation).toContain(`%0A${PHRASE} (the selection did not name it)%0A`);
    expect(run.stdout).toContain(`::group::WH-HMAC-01: `);
    expect(run.stdout).toMatch(new RegExp(`^ {2}${PHRASE}$`, 'm'));
  });
});
