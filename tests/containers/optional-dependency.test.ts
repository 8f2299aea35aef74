// testcontainers is an optional peer dependency: without it, every command but `run --image` works, and
// `run --image` is a harness error (exit 2) that names the package, not a stack trace.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingPackage } from '../../src/containers/load-containers.js';
import { skipUnless } from '../support/capabilities.js';

const CLI = resolve('bin/access-conformance.js');
const HIDE = resolve('tests/containers/support/hide-testcontainers.mjs');

function cli(args: string[], hide: boolean): { status: number | null; stdout: string; stderr: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ACCESS_CONFORMANCE_')));
  const nodeArgs = hide ? ['--import', HIDE, CLI, ...args] : [CLI, ...args];
  const result = spawnSync(process.execPath, nodeArgs, { env, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('testcontainers missing', () => {
  it('the hook hides it: Node itself cannot find the package', () => {
    const probe = ['-e', "import('testcontainers').then(() => console.log('found'), (e) => console.log(e.code, e.message))"];
    const hidden = spawnSync(process.execPath, ['--import', HIDE, ...probe], { encoding: 'utf8', timeout: 30_000 });
    expect(hidden.stdout).toMatch(/^ERR_MODULE_NOT_FOUND Cannot find package 'testcontainers'/);
    const visible = spawnSync(process.execPath, probe, { encoding: 'utf8', timeout: 30_000 });
    expect(visible.stdout.trim()).toBe('found');
  });

  it('run --image exits 2 with DEPENDENCY_MISSING naming the package and how to install it', (ctx) => {
    skipUnless(ctx, 'dist', existsSync(resolve('dist/src/cli/main.js')), 'dist/ is missing: run `npm run build` first');
    const out = mkdtempSync(join(tmpdir(), 'ac-no-testcontainers-'));
    const result = cli(['run', '--image', 'access-conformance-reference:any', '--out', out], true);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain('error[DEPENDENCY_MISSING]: --image needs the optional dependency testcontainers which is not installed');
    expect(result.stderr).toContain('hint: install it next to access-conformance (npm install testcontainers@11; beside a global install: npm install -g testcontainers@11)');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('a run without --image does not need it', (ctx) => {
    skipUnless(ctx, 'dist', existsSync(resolve('dist/src/cli/main.js')), 'dist/ is missing: run `npm run build` first');
    const out = mkdtempSync(join(tmpdir(), 'ac-no-testcontainers-'));
    const result = cli(['run', '--only', 'WH-HMAC-01', '--out', out], true);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('1 passed, 0 failed');
  });

  it('missingPackage reads the package out of a real ERR_MODULE_NOT_FOUND, and nothing else', () => {
    // Node's own error, from a plain child: vitest resolves a test's imports itself, with other messages.
    const probe = "import('access-conformance-no-such-package').catch((e) => console.log(JSON.stringify({ code: e.code, message: e.message })))";
    const printed = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', timeout: 30_000 }).stdout;
    const { code, message } = JSON.parse(printed) as { code: string; message: string };
    expect(missingPackage(Object.assign(new Error(message), { code }))).toBe('access-conformance-no-such-package');
    expect(missingPackage(new Error("Cannot find package 'x'"))).toBeUndefined();
    expect(missingPackage(Object.assign(new Error('Cannot find module /a/b.js'), { code: 'ERR_MODULE_NOT_FOUND' }))).toBeUndefined();
    expect(missingPackage('nope')).toBeUndefined();
  });
});
