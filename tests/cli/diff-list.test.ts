/** `diff` on crafted reports (exit 0, or 2 on bad files) and `list` in its three formats. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJsonReport } from '../../src/reporters/json-report.js';
import { allRequirements, CATALOGUE_VERSION, describeAuthority } from '../../src/requirements/catalogue.js';
import { result, summary } from '../engine/support/fixtures.js';
import { runCli } from './support.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-cli-diff-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('diff', { timeout: 120_000 }, () => {
  it('lists what started failing, started passing, appeared and disappeared; exit 0', async () => {
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    await writeFile(a, JSON.stringify(toJsonReport(summary([result('TOK-01', 'passed'), result('TOK-02', 'failed'), result('TOK-03', 'passed')]))));
    await writeFile(b, JSON.stringify(toJsonReport(summary([result('TOK-01', 'failed'), result('TOK-02', 'passed'), result('TOK-04', 'skipped')]))));
    const text = await runCli(['diff', a, b]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/started failing \(1\)\n {2}TOK-01 +MUST +passed → failed/);
    expect(text.stdout).toContain('TOK-01 got 200');
    expect(text.stdout).toMatch(/started passing \(1\)\n {2}TOK-02/);
    expect(text.stdout).toMatch(/appeared \(only in the second report\) \(1\)\n {2}TOK-04/);
    expect(text.stdout).toMatch(/disappeared \(only in the first report\) \(1\)\n {2}TOK-03/);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('1 started failing, 1 started passing, 1 appeared, 1 disappeared, 0 unchanged');
    const json = await runCli(['diff', a, b, '--format', 'json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).startedFailing[0].id).toBe('TOK-01');
  });

  it('a missing file, a non-JSON file or another JSON document exits 2 with REPORT_INVALID', async () => {
    const good = join(dir, 'good.json');
    await writeFile(good, JSON.stringify(toJsonReport(summary([result('TOK-01', 'passed')]))));
    const notJson = join(dir, 'not.json');
    await writeFile(notJson, '<xml/>');
    const other = join(dir, 'other.json');
    await writeFile(other, JSON.stringify({ results: [] }));
    for (const bad of [join(dir, 'missing.json'), notJson, other]) {
      const run = await runCli(['diff', good, bad]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('error[REPORT_INVALID]');
      expect(run.stderr).toContain(bad);
    }
  });
});

describe('list', { timeout: 120_000 }, () => {
  it('prints the catalogue as text, json and a markdown table with one row per requirement', async () => {
    const all = allRequirements();
    const text = await runCli(['list']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`catalogue ${CATALOGUE_VERSION}: ${all.length} requirements`);
    for (const req of all) expect(text.stdout).toContain(`  ${req.id} `);
    expect(text.stdout).toContain(`authority: ${describeAuthority(all[0]!.authority)}`);

    const json = await runCli(['list', '--format', 'json']);
    const parsed = JSON.parse(json.stdout) as { catalogueVersion: string; requirements: Array<{ id: string; level: string; authority?: { kind: string } }> };
    expect(parsed.catalogueVersion).toBe(CATALOGUE_VERSION);
    expect(parsed.requirements.map((r) => r.id)).toEqual(all.map((r) => r.id));
    // Every MUST carries its authority, and none is the harness's own reading.
    const musts = parsed.requirements.filter((r) => r.level === 'MUST');
    expect(musts.filter((r) => !r.authority || r.authority.kind === 'reading').map((r) => r.id)).toEqual([]);

    const md = await runCli(['list', '--format', 'markdown']);
    const rows = md.stdout.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows).toHaveLength(all.length);
    expect(rows[0]).toContain(`| \`${all[0]!.id}\` | ${all[0]!.level} |`);

    const some = await runCli(['list', '--only', 'PAGE-0*', '--format', 'json']);
    expect((JSON.parse(some.stdout) as { requirements: unknown[] }).requirements.length).toBe(all.filter((r) => r.id.startsWith('PAGE-0')).length);
  });
});
