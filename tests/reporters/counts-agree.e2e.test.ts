/**
 * One set of counts everywhere (issue 31): for a faulty, a dead and a correct target, the console's last line
 * and section headings, the json totals, the junit properties and attributes, the markdown summary and the
 * html verdict line and filter boxes all say the same passed / failed / blocked / errored / skipped.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countsLine, DISPLAY_TOTAL } from '../../src/engine/counts.js';
import type { RunTotals } from '../../src/engine/types.js';
import { runCli, startServe } from '../cli/support.js';

const BUCKETS = ['passed', 'failed', 'blocked', 'errored', 'skipped', 'warnings', 'observations', 'expectedFailures'] as const;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ac-counts-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function runAll(name: string, args: string[]): Promise<{ code: number | null; stdout: string; out: string; totals: RunTotals }> {
  const out = join(work, name);
  const result = await runCli(['run', ...args, '--reporter', 'json,junit,markdown,html', '--out', out], { timeoutMs: 150_000 });
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { totals: RunTotals };
  return { code: result.code, stdout: result.stdout, out, totals: report.totals };
}

/** Every reporter's counts against the json totals. */
async function expectAgreement(run: { stdout: string; out: string; totals: RunTotals }): Promise<void> {
  const { totals } = run;
  const line = countsLine(totals);
  expect(BUCKETS.reduce((sum, bucket) => sum + totals[bucket], 0)).toBe(totals.selected);

  // Console: the last line, and each heading counts the same checks.
  const console = run.stdout.trimEnd().split('\n');
  expect(console.at(-1)).toBe(line);
  const heading = (title: string): number | undefined => {
    const match = new RegExp(`^${title} \\((\\d+)[;)]`, 'm').exec(run.stdout);
    return match ? Number(match[1]) : undefined;
  };
  expect(heading('FAILURES')).toBe(totals.failed > 0 ? totals.failed : undefined);
  expect(heading('HARNESS ERRORS: checks that could not be decided')).toBe(totals.errored > 0 ? totals.errored : undefined);

  // JUnit: the properties of every testsuite, and failures = failed.
  const junit = await readFile(join(run.out, 'junit.xml'), 'utf8');
  const property = (name: string): string[] => [...junit.matchAll(new RegExp(`<property name="${name.replace('.', '\\.')}" value="([^"]*)"/>`, 'g'))].map((m) => m[1]!);
  expect(new Set(property('counts'))).toEqual(new Set([line]));
  for (const bucket of BUCKETS) expect(new Set(property(`count.${bucket}`))).toEqual(new Set([String(totals[bucket])]));
  expect(/<testsuites [^>]*failures="(\d+)"/.exec(junit)?.[1]).toBe(String(totals.failed));

  // Markdown: the bold counts line under the verdict, and the same line last.
  const markdown = await readFile(join(run.out, 'summary.md'), 'utf8');
  expect(markdown).toContain(`**${line}**`);

  // HTML: the verdict line, and each filter box's count.
  const html = await readFile(join(run.out, 'report.html'), 'utf8');
  expect(html).toContain(`— ${line}</p>`);
  for (const [state, bucket] of Object.entries(DISPLAY_TOTAL)) {
    const box = new RegExp(`data-state="${state}" checked> <span class="state s-${state}">[^<]*</span> \\((\\d+)\\)`).exec(html);
    if (box) expect(Number(box[1]), state).toBe(totals[bucket]);
    else expect(totals[bucket], state).toBe(0);
  }
}

describe('the counts agree across every reporter', () => {
  it('a faulty target: failures, their blocked dependants and SHOULD warnings', async () => {
    const run = await runAll('faulty', ['--fault', 'hmac-decoded-key']);
    expect(run.code).toBe(1);
    expect(run.totals.failed).toBeGreaterThan(0);
    expect(run.totals.blocked).toBeGreaterThan(0);
    await expectAgreement(run);
  }, 200_000);

  it('a dead target: every check errored, none failed', async () => {
    const profile = join(work, 'dead-serve', 'target.json');
    const server = await startServe(['--port', '0', '--profile-out', profile, '--out', join(work, 'dead-serve')], profile);
    await server.stop();
    const run = await runAll('dead', ['--profile', profile]);
    expect(run.code).toBe(2);
    expect(run.totals).toMatchObject({ passed: 0, failed: 0, errored: run.totals.selected });
    await expectAgreement(run);
  }, 200_000);

  it('a correct target: passed and skipped only', async () => {
    const run = await runAll('correct', []);
    expect(run.code).toBe(0);
    expect(run.totals).toMatchObject({ failed: 0, blocked: 0, errored: 0 });
    await expectAgreement(run);
  }, 200_000);
});
