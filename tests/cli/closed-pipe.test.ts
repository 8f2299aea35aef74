/**
 * `access-conformance list | head -1`: the reader closes its end after the first line, and the command ends
 * quietly (no `Error: write EPIPE`, no stack trace) with the exit code it would have had: 0 for list and
 * diff, the verdict for run, whose report files are still written. Each command's stdout is piped into
 * `head -n 1`; the outputs are larger than a pipe's buffer (64 KiB), so the command is still writing when
 * the reader goes.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRequirements } from '../../src/requirements/catalogue.js';
import { BIN, ROOT, assertBuilt, runProcess } from './support.js';

interface HeadResult {
  code: number | null;
  firstLine: string;
  stderr: string;
}

/**
 * Runs the CLI as `CLI ARGS | head -n 1` in bash and returns the CLI's own exit status (PIPESTATUS). A shell
 * pipe, not node's stdio 'pipe': libuv makes that a socket pair, whose buffer is large enough to take a
 * whole listing, so the command would never meet the closed reader; a pipe holds 64 KiB, and `head` reads
 * one buffer, prints the first line and exits while the command still has more to write.
 */
async function pipedIntoHead(args: string[], cwd = ROOT, timeoutMs = 60_000): Promise<HeadResult> {
  assertBuilt();
  const script = '"$@" | head -n 1; exit "${PIPESTATUS[0]}"';
  const result = await runProcess('bash', ['-c', script, 'bash', process.execPath, BIN, ...args], { cwd, timeoutMs, label: `${args.join(' ')} | head -n 1` });
  return { code: result.code, firstLine: result.stdout.replace(/\n$/, ''), stderr: result.stderr };
}

function expectQuiet(result: HeadResult): void {
  expect(result.stderr).not.toMatch(/EPIPE|\n\s+at |node:events|Unhandled 'error'/);
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-closed-pipe-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a reader that closes after the first line', () => {
  it('list ends with exit 0 and no stack trace', async () => {
    const result = await pipedIntoHead(['list']);
    expect(result.firstLine).toMatch(/^access-conformance catalogue \S+: \d+ requirements/);
    expectQuiet(result);
    expect(result.code, result.stderr).toBe(0);
  });

  it('list --format json ends with exit 0 and no stack trace', async () => {
    const result = await pipedIntoHead(['list', '--format', 'json']);
    expect(result.firstLine.trim().startsWith('{') || result.firstLine.trim().startsWith('[')).toBe(true);
    expectQuiet(result);
    expect(result.code, result.stderr).toBe(0);
  });

  it('diff ends with exit 0 and no stack trace', async () => {
    // Two reports over the whole catalogue, every check flipped: a diff far larger than a pipe's buffer.
    const report = (state: string) => ({
      format: 'access-conformance-report',
      formatVersion: 2,
      results: allRequirements().map((req) => ({ id: req.id, level: req.level, text: req.text, state })),
    });
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    await writeFile(a, JSON.stringify(report('passed')));
    await writeFile(b, JSON.stringify(report('failed')));
    for (const format of ['text', 'json']) {
      const result = await pipedIntoHead(['diff', a, b, '--format', format]);
      expectQuiet(result);
      expect(result.code, result.stderr).toBe(0);
    }
  });

  it('run keeps its verdict as exit code and still writes its reports', async () => {
    const out = join(dir, 'run');
    const result = await pipedIntoHead(['run', '--fault', 'hmac-decoded-key', '--only', 'WH-HMAC-08', '--reporter', 'console,json', '--out', out], dir, 120_000);
    expect(result.firstLine).toMatch(/^access-conformance /);
    expectQuiet(result);
    // Not conformant (the fault breaks a MUST): the closed pipe changes nothing about the verdict.
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { verdict: { exitCode: number } };
    expect(report.verdict.exitCode).toBe(1);
  });
});
