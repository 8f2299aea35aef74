/**
 * The rerun line a failed check carries reruns just that check: a run against a faulty embedded reference
 * fails, and each failed check's `rerun` from report.json, run as printed, checks that one ID alone with the
 * same outcome. A `run --out` reused by the rerun loses the first run's files.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/support.js';

interface Report {
  results: Array<{ id: string; state: string; rerun?: string }>;
}

const dir = await mkdtemp(join(tmpdir(), 'ac-rerun-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function report(out: string): Promise<Report> {
  return JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
}

describe('rerun line', () => {
  it('reruns just the failed check, with the same outcome', async () => {
    const out = join(dir, 'first');
    const first = await runCli(['run', '--fault', 'hmac-decoded-key', '--only', 'WH-HMAC-*', '--reporter', 'json,junit', '--out', out], { timeoutMs: 120_000 });
    expect(first.code, first.stderr).toBe(1);
    const failed = (await report(out)).results.filter((r) => r.state === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    const target = failed[0]!;
    // The launcher is the way this run was started (src/cli/launcher.ts; here `node bin/…` from the clone).
    expect(target.rerun).toMatch(new RegExp(`^node bin/access-conformance\\.js run --fault hmac-decoded-key --only ${target.id} --seed \\S+$`));
    expect(first.stdout).toContain(`rerun: ${target.rerun}`);
    // Run as printed (its words need no shell quoting), writing into the same --out.
    const words = target.rerun!.split(' ').slice(2);
    const again = await runCli([...words, '--reporter', 'json', '--out', out], { timeoutMs: 120_000 });
    expect(again.code, again.stderr).toBe(1);
    expect(again.stdout).toMatch(/removed report\.json, junit\.xml, reproductions\/ left by an earlier run/);
    expect(existsSync(join(out, 'junit.xml'))).toBe(false);
    const rerun = await report(out);
    expect(rerun.results.map((r) => [r.id, r.state])).toEqual([[target.id, 'failed']]);
  }, 300_000);
});
