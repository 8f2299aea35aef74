/**
 * Issue 23: every failure's reproduction, run as printed, gets the same status from the faulty target
 * minutes later. Three faults of different areas (idempotency, webhook JWT, pagination behind a token), each
 * behind its own `serve --fault F --hooks`; a run against it writes reproductions; the target's clock is
 * moved 10 minutes on (past the 5-minute timestamp window and a JWT's lifetime: a recorded request would be
 * stale by then); each printed `reproduce:` command is run through a shell with `access-conformance` on
 * PATH. The control: the idempotency and JWT faults' commands against a correct `serve` do not reproduce
 * (exit 1), so the command can fail, and each file's recipe is the spoiled request, not a valid one.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli, startServe } from '../cli/support.js';
import { resultKey } from '../../src/engine/result-key.js';

/** The file a result's reproduction is written to: its key (ID, or ID@METHOD path) made a file name (reporters/reproductions.ts). */
function fileOf(key: string): string {
  return `${key.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`;
}

interface Report {
  results: Array<{ id: string; operation?: { method: string; path: string; operationId?: string }; state: string; reproduction?: { command: string; file: string } | { unavailable: string } }>;
}

const dir = await mkdtemp(join(tmpdir(), 'ac-repro-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** `access-conformance` on PATH, as an installed package puts it there. */
const shim = join(dir, 'bin');
await mkdir(shim, { recursive: true });
await writeFile(join(shim, 'access-conformance'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
await chmod(join(shim, 'access-conformance'), 0o755);

function shell(command: string, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, env: cleanEnv({ PATH: `${shim}:${process.env.PATH ?? ''}` }), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function advanceClock(profilePath: string, seconds: number): Promise<void> {
  const hooks = (JSON.parse(await readFile(profilePath, 'utf8')) as { hooks: { baseUrl: string; token: string } }).hooks;
  const response = await fetch(`${hooks.baseUrl}/clock`, {
    method: 'POST',
    headers: { authorization: `Bearer ${hooks.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: seconds }),
    signal: AbortSignal.timeout(10_000),
  });
  expect(response.status).toBe(200);
}

/** A fault's failing run; returns the printed reproduction commands by check ID. */
async function failingRun(fault: string): Promise<{ cwd: string; commands: Map<string, string> }> {
  const cwd = join(dir, fault);
  await mkdir(cwd, { recursive: true });
  const profile = join(cwd, 'target.json');
  const serve = await startServe(['--fault', fault, '--hooks', '--profile-out', profile], profile);
  try {
    const run = await runCli(['run', '--profile', 'target.json', '--reporter', 'json', '--out', 'out'], { cwd, timeoutMs: 180_000 });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const report = JSON.parse(await readFile(join(cwd, 'out', 'report.json'), 'utf8')) as Report;
    const failed = report.results.filter((r) => r.state === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    const commands = new Map<string, string>();
    for (const result of failed) {
      const reproduction = result.reproduction;
      const key = resultKey(result);
      expect(reproduction && 'command' in reproduction ? 'command' : reproduction, key).toBe('command');
      const { command } = reproduction as { command: string };
      // Started as `node <absolute bin>` from another folder: the line starts the same way (src/cli/launcher.ts).
      expect(command).toBe(`node ${BIN} send --profile target.json --replay out/reproductions/${fileOf(key)}`);
      // The console prints the same line.
      expect(run.stdout).toContain(`reproduce: ${command}`);
      commands.set(key, command);
    }
    // Ten minutes later on the target's clock: a recorded timestamp or JWT would be stale.
    await advanceClock(profile, 600);
    for (const [id, command] of commands) {
      const replayed = await shell(command, cwd);
      expect(replayed.code, `${id}: ${replayed.output}`).toBe(0);
      expect(replayed.output).toMatch(/^reproduced: HTTP \d{3}, as in the run$/m);
    }
    return { cwd, commands };
  } finally {
    await serve.stop();
  }
}

describe('reproduction per failure', () => {
  const runs: Array<{ cwd: string; commands: Map<string, string> }> = [];

  it.each(['idempotency-missing', 'jwt-claims-optional', 'page-size-default-50'])(
    'every failure of %s reproduces, run as printed, ten minutes later',
    async (fault) => {
      runs.push(await failingRun(fault));
    },
    300_000,
  );

  it('against a correct target the idempotency and JWT reproductions do not reproduce: they carry the spoiled requests', async () => {
    // A repeat's reproduction sends the first request first, under one new event ID, so it sets up the
    // duplicate on any target; a page of 50 items is a 200 like a page of 25, so pagination is left out.
    const spoiled = runs.filter((run) => !run.cwd.endsWith('page-size-default-50'));
    expect(spoiled).toHaveLength(2);
    const cwd = join(dir, 'correct');
    await mkdir(cwd, { recursive: true });
    const profile = join(cwd, 'target.json');
    const serve = await startServe(['--hooks', '--profile-out', profile], profile);
    try {
      for (const run of spoiled) {
        for (const [id, command] of run.commands) {
          // The same file, sent with the correct target's profile: the credentials are named, not copied.
          const file = join(run.cwd, 'out', 'reproductions', fileOf(id));
          const replayed = await shell(command.replace('--profile target.json', `--profile ${profile}`).replace(/--replay \S+/, `--replay ${file}`), cwd);
          expect(replayed.code, `${id}: ${replayed.output}`).toBe(1);
          expect(replayed.output).toMatch(/^not reproduced: HTTP 4\d\d now, HTTP 200 in the run$/m);
        }
      }
    } finally {
      await serve.stop();
    }
  }, 300_000);
});
