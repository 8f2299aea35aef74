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
import { STACKS, listVariants } from '../../src/variants/index.js';
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

  it('an unknown --fault names the lists, and a near miss gets "did you mean"', async () => {
    const result = await runCli(['serve', '--fault', 'no-such-fault']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('serve --list-faults');
    expect(result.stderr).toContain('serve --list-variants');
    const near = await runCli(['serve', '--fault', 'stack-go-net-htp']);
    expect(near.code).toBe(2);
    expect(near.stderr).toContain('did you mean "stack-go-net-http"?');
  });
});

describe('serve --list-variants', () => {
  it('prints every legitimate variant and stack with the SHOULD checks it warns on and the stacks it stands for', async () => {
    const result = await runCli(['serve', '--list-variants']);
    expect(result.code, result.stderr).toBe(0);
    const variants = listVariants();
    expect(result.stdout.split('\n')[0]).toBe(`${variants.length + STACKS.length} legitimate variants and stacks: serve --fault NAME (repeatable; a run passes, --strict warns on the SHOULD checks named)`);
    for (const variant of variants) {
      const line = result.stdout.split('\n').find((l) => l.startsWith(`${variant.name} `));
      expect(line, variant.name).toContain(` ${variant.area} `);
      expect(line).toContain(`${variant.warns.length > 0 ? variant.warns.join(', ') : '(none)'}: ${variant.description} (${variant.stacks})`);
    }
    for (const stack of STACKS) expect(result.stdout).toMatch(new RegExp(`^${stack.name} +stack +\\S.*: ${stack.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `, 'm'));
  });

  it('serves a stack by name: the default run passes it', async () => {
    const result = await runCli(['run', '--fault', 'stack-fastapi', '--only', 'WH-X18,PAGE-11', '--out', join(dir, 'stack')], { timeoutMs: 120_000 });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/embedded reference with fault stack-fastapi/);
    const strict = await runCli(['run', '--fault', 'stack-fastapi', '--only', 'WH-X18,PAGE-11', '--strict', '--out', join(dir, 'stack')], { timeoutMs: 120_000 });
    expect(strict.code, strict.stdout).toBe(1);
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
