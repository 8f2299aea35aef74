/**
 * `load` as a user runs it with outputs that cannot be written: `--stream /dev/full` exits 2 naming
 * `--stream` and the full disk, with its report files written and no stack trace; `--stream` under a path
 * no folder can be made for (/proc) fails at once naming `--stream`, before any request.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli } from '../cli/support.js';

const root = mkdtempSync(join(tmpdir(), 'ac-load-outputs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const STACK = /\n\s+at .+\(.+:\d+:\d+\)/;

describe('load with outputs that cannot be written', () => {
  test('--stream /dev/full: exit 2, error[OUTPUT_UNWRITABLE] at --stream, the report files written, no stack trace', async () => {
    const out = join(root, 'full');
    const result = await runCli(['load', '--scenario', 'webhook-hmac', '--rate', '20', '--duration', '2s', '--stream', '/dev/full', '--out', out, '--quiet']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error[OUTPUT_UNWRITABLE] at --stream: --stream /dev/full: cannot write it: the disk is full (ENOSPC)');
    expect(existsSync(join(out, 'load-webhook-hmac.json'))).toBe(true);
    expect(existsSync(join(out, 'load-webhook-hmac.html'))).toBe(true);
    expect(result.stdout).toContain('reports');
    expect(result.stderr + result.stdout).not.toMatch(STACK);
  }, 120_000);

  test('--stream under /proc: exit 2 at once naming --stream, nothing sent', async () => {
    const result = await runCli(['load', '--scenario', 'webhook-hmac', '--rate', '20', '--duration', '2s', '--stream', '/proc/1/no-such/s.jsonl', '--out', join(root, 'proc'), '--quiet'], { timeoutMs: 30_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error[LOAD_CONFIG] at --stream: --stream /proc/1/no-such/s.jsonl: cannot open it for appending');
    expect(result.stderr).not.toMatch(STACK);
  }, 60_000);
});
