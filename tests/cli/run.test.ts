/**
 * End to end: `run` against the embedded reference and against a second instance started by `serve`, both
 * conformant with the same totals; every reporter's files free of the profile's secrets; baselines; seeds;
 * and a faulty reference failing the run.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFaults } from '../../src/faults/index.js';
import { loadProfile } from '../../src/profile/index.js';
import { allRequirements } from '../../src/requirements/catalogue.js';
import { controlsOf } from '../../src/requirements/controls.js';
import type { JsonReport } from '../../src/reporters/json-report.js';
import { runCli, startServe } from './support.js';

const RUN_TIMEOUT_MS = 240_000;
const CATALOGUE_SIZE = allRequirements().length;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ac-cli-run-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function readReport(dir: string): Promise<JsonReport> {
  return JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as JsonReport;
}

function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? '';
}

/** Every check passed or was skipped with a reason; the console's last line agrees with the report. */
function expectConformant(report: JsonReport, stdout: string): void {
  // Every requirement has its results: one, or one per called operation for a per-operation one (OPS-*).
  const called = new Set((report.operations?.called ?? []).map((op) => `${op.method} ${op.path}`));
  for (const requirement of allRequirements()) {
    const results = report.results.filter((result) => result.id === requirement.id);
    if (requirement.perOperation === undefined) {
      expect(results, requirement.id).toHaveLength(1);
    } else {
      expect(results.length, requirement.id).toBeGreaterThan(0);
      for (const result of results) expect(called, `${requirement.id}: ${result.operation?.method} ${result.operation?.path}`).toContain(`${result.operation?.method} ${result.operation?.path}`);
    }
  }
  expect(new Set(report.results.map((result) => result.id)).size).toBe(CATALOGUE_SIZE);
  expect(report.totals.failed).toBe(0);
  expect(report.totals.errored).toBe(0);
  expect(report.totals.passed + report.totals.skipped).toBe(report.results.length);
  expect(report.totals.passed).toBeGreaterThan(0);
  for (const result of report.results) {
    expect(['passed', 'skipped'], `${result.id}: ${result.failure?.message ?? result.harnessError?.message ?? ''}`).toContain(result.state);
    if (result.state === 'skipped') expect(result.reason, result.id).toBeTruthy();
  }
  expect(report.verdict).toMatchObject({ status: 'conformant', exitCode: 0 });
  expect(lastLine(stdout)).toBe(`${report.totals.passed} passed, 0 failed, 0 blocked, 0 errored, ${report.totals.skipped} skipped`);
}

/** Text shapes a secret could take in a report: as is, base64, base64url, URL-encoded, JSON-escaped. */
function shapes(secret: string): string[] {
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  return [...new Set([secret, b64, b64.replace(/=+$/, ''), b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''), encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])];
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('run against the embedded reference and against serve', () => {
  let embedded: JsonReport;

  it('run with no profile checks the embedded reference: exit 0, every check passed or skipped with a reason', async () => {
    const out = join(work, 'embedded');
    const result = await runCli(['run', '--reporter', 'json', '--out', out, '--seed', 'e2e-embedded'], { timeoutMs: RUN_TIMEOUT_MS });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    embedded = await readReport(out);
    expectConformant(embedded, result.stdout);
    expect(embedded.seed).toBe('e2e-embedded');
    expect(embedded.target.description).toContain('embedded reference');
    expect(result.stdout).toContain('seed      e2e-embedded');
    // The progress shows a line per group.
    for (const group of new Set(allRequirements().map((req) => req.group))) expect(result.stdout).toContain(`  ${group} `);
  }, RUN_TIMEOUT_MS);

  it('run --profile against `serve` gives the same totals, and no profile secret reaches the console or any report', async () => {
    const profilePath = join(work, 'serve', 'sandbox.target.json');
    const serve = await startServe(['--hooks', '--profile-out', profilePath, '--seed', 'e2e-serve'], profilePath);
    try {
      const out = join(work, 'served-reports');
      const markdownSummary = join(work, 'step-summary.md');
      const result = await runCli(['run', '--profile', profilePath, '--reporter', 'json,junit,html', '--reporter', 'markdown', '--out', out], {
        timeoutMs: RUN_TIMEOUT_MS,
        env: { GITHUB_STEP_SUMMARY: markdownSummary },
      });
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      const report = await readReport(out);
      expectConformant(report, result.stdout);
      if (embedded) expect(report.totals).toEqual(embedded.totals);

      const files = await filesUnder(out);
      expect(files.map((file) => file.slice(out.length + 1)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
      const stepSummary = await readFile(markdownSummary, 'utf8');
      expect(stepSummary).toContain('access-conformance: conformant');

      const profile = await loadProfile(profilePath);
      expect(profile.secrets.length).toBeGreaterThanOrEqual(4);
      const texts: Array<[string, string]> = [
        ['stdout', result.stdout],
        ['stderr', result.stderr],
        ['step summary', stepSummary],
        ...(await Promise.all(files.map(async (file) => [file, await readFile(file, 'utf8')] as [string, string]))),
      ];
      // The html report carries every exchange: token requests, assertions, signed webhooks. It must be big.
      expect(texts.find(([name]) => name.endsWith('report.html'))![1].length).toBeGreaterThan(50_000);
      for (const secret of profile.secrets) {
        for (const shape of shapes(secret)) {
          for (const [name, text] of texts) expect(text.includes(shape), `a secret (${shape.length} chars) leaked into ${name}`).toBe(false);
        }
      }

      // The same target without hooks: checks that need the clock are skipped with the reason, and a run
      // that selects only those checked nothing: exit 2.
      const document = JSON.parse(await readFile(profilePath, 'utf8')) as Record<string, unknown>;
      delete document.hooks;
      const noHooks = join(work, 'serve', 'no-hooks.target.json');
      await writeFile(noHooks, JSON.stringify(document));
      const clockIds = allRequirements().filter((req) => req.needs.includes('hooks.clock')).map((req) => req.id);
      expect(clockIds.length).toBeGreaterThan(0);
      // Their positive controls stay out (--skip): a control the selection pulls in is counted and can fail
      // on its own (this target's clock was moved by the run above), which is not what this run is about.
      const controls = [...new Set(clockIds.flatMap((id) => controlsOf(id)))];
      const skipped = await runCli(['run', '--profile', noHooks, '--only', clockIds.join(','), '--skip', controls.join(','), '--reporter', 'json', '--out', join(work, 'no-hooks')], { timeoutMs: RUN_TIMEOUT_MS });
      expect(skipped.code, `${skipped.stdout}\n${skipped.stderr}`).toBe(2);
      // One result per clock check, or one per called operation for a per-operation one (OPS-03).
      const skippedReport = await readReport(join(work, 'no-hooks'));
      expect(new Set(skippedReport.results.map((result) => result.id))).toEqual(new Set(clockIds));
      expect(skippedReport.results.every((result) => result.state === 'skipped')).toBe(true);
      const count = skippedReport.results.length;
      expect(skipped.stdout).toContain(`${count} × target offers no clock hook`);
      expect(skipped.stdout).toContain('nothing was checked');
      expect(lastLine(skipped.stdout)).toBe(`0 passed, 0 failed, 0 blocked, 0 errored, ${count} skipped`);
    } finally {
      await serve.stop();
    }
  }, RUN_TIMEOUT_MS);
});

describe('run options end to end', () => {
  it('the same --seed gives the same tenant; a baseline entry that passes is reported as fixed', async () => {
    const baseline = join(work, 'baseline.json');
    await writeFile(baseline, JSON.stringify(['CRED-01']));
    const runs = [];
    for (const name of ['a', 'b']) {
      const out = join(work, `seed-${name}`);
      const result = await runCli(['run', '--only', 'CRED-01', '--seed', 'same-seed', '--reporter', 'json', '--out', out, '--baseline', baseline], {
        timeoutMs: RUN_TIMEOUT_MS,
      });
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      expect(result.stdout).toContain('FIXED (1)');
      expect(result.stdout).toContain('  CRED-01');
      runs.push(await readReport(out));
    }
    expect(runs[0]!.profile.name).toBe(runs[1]!.profile.name);
    expect(runs[0]!.baseline?.noLongerFailing).toEqual(['CRED-01']);
    expect(runs[0]!.results.map((r) => r.id)).toEqual(['CRED-01']);
  }, RUN_TIMEOUT_MS);

  // A fault that breaks a MUST: with --strict a SHOULD would do too, INFO never fails a run.
  const levels = new Map(allRequirements().map((req) => [req.id as string, req.level]));
  const fault = listFaults().find((f) => f.breaks.some((id) => levels.get(id) === 'MUST'));
  it('run --fault exits 1 and reports the requirements the fault breaks as failed', async () => {
    expect(fault, 'a fault of src/faults of the kind this test needs').toBeDefined();
    const out = join(work, 'fault');
    const result = await runCli(['run', '--fault', fault!.name, '--only', fault!.breaks.join(','), '--reporter', 'json', '--out', out], { timeoutMs: RUN_TIMEOUT_MS });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(1);
    const report = await readReport(out);
    const failed = report.results.filter((r) => r.state === 'failed').map((r) => r.id);
    expect(failed.length).toBeGreaterThan(0);
    expect(result.stdout).toContain('FAILURES');
    expect(report.verdict.status).toBe('not-conformant');
  }, RUN_TIMEOUT_MS);
});

describe('run --strict end to end', () => {
  // A fault that breaks only SHOULD requirements: a warning without --strict, a failed run with it.
  const levels = new Map(allRequirements().map((req) => [req.id as string, req.level]));
  const fault = listFaults().find((f) => f.breaks.length > 0 && f.breaks.every((id) => levels.get(id) === 'SHOULD'));
  it('SHOULD failures warn without --strict (exit 0) and fail the run with it (exit 1)', async () => {
    expect(fault, 'a fault of src/faults of the kind this test needs').toBeDefined();
    const args = ['run', '--fault', fault!.name, '--only', fault!.breaks.join(','), '--out', join(work, 'strict')];
    const lenient = await runCli(args, { timeoutMs: RUN_TIMEOUT_MS });
    expect(lenient.code, `${lenient.stdout}\n${lenient.stderr}`).toBe(0);
    expect(lenient.stdout).toContain('WARNINGS: SHOULD requirements that failed');
    const strict = await runCli([...args, '--strict'], { timeoutMs: RUN_TIMEOUT_MS });
    expect(strict.code, `${strict.stdout}\n${strict.stderr}`).toBe(1);
    expect(strict.stdout).toContain('FAILURES');
    expect(strict.stdout).toContain('SHOULD (--strict)');
  }, RUN_TIMEOUT_MS);
});
