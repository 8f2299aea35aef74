/**
 * No silent skip (issue 47): the capability helper, the end-of-run list and JUnit's skip messages, and a
 * scan of tests/ for the ways of skipping that say no reason.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package.js';
import { sourceFiles } from '../architecture/import-graph.js';
import { declaredCapabilities, missingCapability } from './capabilities.js';

const root = packageRoot();

describe('skipUnless: skip elsewhere, fail in CI when the capability is declared', () => {
  it('reads AC_CAPABILITIES and refuses a name it does not know', () => {
    expect([...declaredCapabilities({ AC_CAPABILITIES: 'xmllint, docker,,tmpfs' })]).toEqual(['xmllint', 'docker', 'tmpfs']);
    expect(() => declaredCapabilities({ AC_CAPABILITIES: 'xmllint,xmlint' })).toThrow(/unknown capabilities: xmlint/);
  });

  it('a missing capability skips with its reason, and fails when CI declared it', () => {
    expect(missingCapability('xmllint', 'not on PATH', {})).toEqual({ skip: 'needs xmllint: not on PATH' });
    expect(missingCapability('xmllint', 'not on PATH', { AC_CAPABILITIES: 'docker' })).toEqual({ skip: 'needs xmllint: not on PATH' });
    expect(missingCapability('xmllint', 'not on PATH', { AC_CAPABILITIES: 'docker,xmllint' })).toEqual({ fail: 'xmllint is declared by .ci/run (AC_CAPABILITIES) but missing here: not on PATH' });
  });
});

describe('every skip listed with its reason, at the end of the run and in JUnit', () => {
  const run = (env: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-skips-'));
    const junit = join(dir, 'junit.xml');
    const result = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--root', join(root, 'tests/fixtures/skips')], {
      env: { ...process.env, AC_CAPABILITIES: '', ...env, AC_JUNIT_FILE: junit, NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    let xml = '';
    try {
      xml = readFileSync(junit, 'utf8');
    } catch {
      xml = '';
    }
    rmSync(dir, { recursive: true, force: true });
    return { status: result.status, out: `${result.stdout}${result.stderr}`, xml };
  };

  it('without the capability declared: the run passes, the summary and JUnit name each skip and why', () => {
    const { status, out, xml } = run({});
    expect(status, out).toBe(0);
    expect(out).toMatch(/2 skipped, each with its reason:\n {2}- skips\.fixture\.ts > needs xmllint\n {6}needs xmllint: no "xmllint" <on> PATH\n {2}- skips\.fixture\.ts > skipped at declaration\n {6}no reason given/);
    expect(xml).toContain('<skipped message="needs xmllint: no &#34;xmllint&#34; &#60;on&#62; PATH"/>');
    expect(xml).toContain('<skipped message="no reason given"/>');
    expect(xml).toMatch(/<testsuite name="skips\.fixture\.ts"[^>]* skipped="2"/);
  });

  it('with it declared (CI): the same test fails, the run is red', () => {
    const { status, out, xml } = run({ AC_CAPABILITIES: 'xmllint' });
    expect(status, out).toBe(1);
    expect(out).toMatch(/xmllint is declared by \.ci\/run \(AC_CAPABILITIES\) but missing here/);
    expect(xml).toMatch(/<failure message="xmllint is declared/);
  });
});

describe('tests/ skip only through skipUnless', () => {
  it('no it.skipIf / runIf / ctx.skip / it.skip outside tests/support/capabilities.ts and the skip fixture', () => {
    const allowed = new Set(['tests/support/capabilities.ts', 'tests/fixtures/skips/skips.fixture.ts', 'tests/support/skips.test.ts']);
    const found: string[] = [];
    for (const file of sourceFiles(join(root, 'tests'))) {
      const name = file.slice(root.length + 1);
      if (allowed.has(name)) continue;
      readFileSync(file, 'utf8').split('\n').forEach((line, index) => {
        if (/\.(skipIf|runIf)\(|\b(it|test|describe)\.skip\(|\bctx\.skip\(|\bcontext\.skip\(/.test(line)) found.push(`${name}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });
});
