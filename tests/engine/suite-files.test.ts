/**
 * Which suite files the engine runs: the compiled ones when it runs from dist/ (the CLI), the TypeScript
 * sources when it runs from src/ (these tests), whatever files exist, and a clear error when a compiled
 * engine finds no compiled suites.
 */
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { discoverSuites, engineForm, groupOfModule } from '../../src/engine/suite-files.js';
import { isHarnessError } from '../../src/errors.js';
import { packageRoot } from '../../src/package.js';

describe('suite files', () => {
  test('the form follows where the engine module was loaded from', () => {
    expect(engineForm(pathToFileURL('/pkg/dist/src/engine/suite-files.js').href)).toBe('compiled');
    expect(engineForm(pathToFileURL('/pkg/src/engine/suite-files.ts').href)).toBe('source');
    expect(engineForm()).toBe('source');
  });

  test('groups are file names without the suffix, in either form', () => {
    expect(groupOfModule('/pkg/dist/suites/webhook-jwt.suite.js')).toBe('webhook-jwt');
    expect(groupOfModule('/pkg/suites/webhook-jwt.suite.ts')).toBe('webhook-jwt');
  });

  test('any suite file under the folder is found, nested ones included, support files not', () => {
    const root = mkdtempSync(join(tmpdir(), 'ac-suite-files-'));
    try {
      mkdirSync(join(root, 'dist', 'suites', 'extra'), { recursive: true });
      mkdirSync(join(root, 'dist', 'suites', 'support'), { recursive: true });
      for (const file of ['a.suite.js', 'extra/b.suite.js', 'support/check.js', 'a.suite.d.ts', 'a.suite.js.map']) writeFileSync(join(root, 'dist', 'suites', file), '');
      const found = discoverSuites(root, 'compiled');
      expect(found.form).toBe('compiled');
      expect([...found.byGroup.keys()].sort()).toEqual(['a', 'b']);
      expect(found.byGroup.get('b')).toBe(join(root, 'dist', 'suites', 'extra', 'b.suite.js'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a compiled engine without compiled suites says to build', () => {
    const root = mkdtempSync(join(tmpdir(), 'ac-suite-files-'));
    try {
      const error = (() => {
        try {
          discoverSuites(root, 'compiled');
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(isHarnessError(error)).toBe(true);
      expect((error as { hint?: string }).hint).toMatch(/npm run build/);
      expect(discoverSuites(root, 'source').byGroup.size).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('the package has its source suites, and the one test file a run hands vitest', () => {
    const found = discoverSuites();
    expect(found.byGroup.get('automations')).toMatch(/suites[\\/]automations\.suite\.ts$/);
    expect(found.entry).toMatch(/suites[\\/]support[\\/]run-entry\.ts$/);
    expect(existsSync(found.entry)).toBe(true);
    // The entry is no suite of its own: it imports the selected ones.
    expect([...found.byGroup.values()]).not.toContain(found.entry);
  });

  test('a compiled engine hands vitest the compiled entry', () => {
    expect(discoverSuites(packageRoot(), 'compiled').entry).toBe(join(packageRoot(), 'dist', 'suites', 'support', 'run-entry.js'));
  });
});
