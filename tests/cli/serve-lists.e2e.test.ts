/**
 * `serve --list-faults` prints every fault `--fault` accepts, and a `serve` that npm/npx started stops once
 * its wrapper is gone (no orphan server).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFaults } from '../../src/faults/index.js';
import { BIN, ROOT, assertBuilt, cleanEnv, runCli } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'ac-serve-lists-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('serve --list-faults', () => {
  it('prints name, area, what breaks and what it does wrong for every fault, and exits 0', async () => {
    const result = await runCli(['serve', '--list-faults']);
    expect(result.code, result.stderr).toBe(0);
    const faults = listFaults();
    expect(result.stdout.split('\n')[0]).toBe(`${faults.length} faults: serve --fault NAME (repeatable)`);
    for (const fault of faults) {
      const line = result.stdout.split('\n').find((l) => l.startsWith(`${fault.name} `));
      expect(line, fault.name).toBeDefined();
      expect(line).toContain(` ${fault.area} `);
      expect(line).toContain(`${fault.breaks.join(', ')}: ${fault.description}`);
    }
  });

  it('an unknown --fault names the list', async () => {
    const result = await runCli(['serve', '--fault', 'no-such-fault']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('serve --list-faults');
  });
});

describe('serve started by npx', () => {
  it('stops once its wrapper is killed', async () => {
    assertBuilt();
    const profile = join(dir, 'wrapped.target.json');
    const pidFile = join(dir, 'serve.pid');
    // The wrapper stands in for npx: it starts serve with npm's environment and is then SIGKILLed.
    const wrapper = spawn(
      process.execPath,
      [
        '-e',
        `const c = require('node:child_process').spawn(process.execPath, [${JSON.stringify(BIN)}, 'serve', '--profile-out', ${JSON.stringify(profile)}], { stdio: 'ignore' });
         require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); setInterval(() => {}, 1000);`,
      ],
      { cwd: ROOT, env: cleanEnv({ npm_command: 'exec' }), stdio: 'ignore' },
    );
    try {
      const deadline = Date.now() + 30_000;
      while (!existsSync(profile) || !existsSync(pidFile)) {
        if (Date.now() > deadline) throw new Error('serve wrote no profile in 30 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const servePid = Number(readFileSync(pidFile, 'utf8'));
      expect(alive(servePid)).toBe(true);
      wrapper.kill('SIGKILL');
      const stopBy = Date.now() + 10_000;
      while (alive(servePid) && Date.now() < stopBy) await new Promise((resolve) => setTimeout(resolve, 100));
      const stillAlive = alive(servePid);
      if (stillAlive) process.kill(servePid, 'SIGKILL');
      expect(stillAlive, 'serve outlived its wrapper by 10 s').toBe(false);
    } finally {
      if (wrapper.exitCode === null && wrapper.signalCode === null) wrapper.kill('SIGKILL');
    }
  });
});
