/**
 * docs/coverage.md carries generated sections (the coverage table from the catalogue, the mutation-score
 * summary of docs/mutation-score.md) and docs/faults.md a generated fault list. This test only compares: a stale
 * part fails with the command that writes it (`npm run docs`); no test rewrites a file.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package.js';
import { shellBlocks } from './support/shell-blocks.js';
import { README_SECTIONS, SECTIONS_DOC, expectedFaultsDoc, expectedSandboxDoc, expectedReadmeSection, readDoc, readmeSection, staleMessage } from '../../scripts/generated-docs.js';

const root = packageRoot();

describe('generated documentation', () => {
  it.each(README_SECTIONS)(`${SECTIONS_DOC}'s %s section is current`, (name) => {
    expect(existsSync(join(root, 'docs', 'mutation-score.md')), 'docs/mutation-score.md is missing: run `npm run docs`').toBe(true);
    const expected = expectedReadmeSection(name, readDoc(root, 'docs/mutation-score.md'));
    expect(readmeSection(readDoc(root, SECTIONS_DOC), name), staleMessage(`${SECTIONS_DOC}'s ${name} section`)).toBe(expected);
  });

  it("docs/sandbox.md's client mistakes are the catalogue's", () => {
    const current = readDoc(root, 'docs/sandbox.md');
    expect(current, staleMessage('docs/sandbox.md')).toBe(expectedSandboxDoc(current));
  });

  it("docs/faults.md's fault list is the registry's", () => {
    const current = readDoc(root, 'docs/faults.md');
    expect(current, staleMessage('docs/faults.md')).toBe(expectedFaultsDoc(current));
  });
});

describe('README.md, the page a newcomer reads first', () => {
  const readme = readDoc(root, 'README.md');

  it('fits a screen or two, and says before any install that the package is not in the registry', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(130);
    const notInRegistry = readme.indexOf('Not in the npm registry');
    expect(notInRegistry).toBeGreaterThan(-1);
    expect(notInRegistry).toBeLessThan(readme.indexOf('npm install'));
  });

  it("shows `npm test`, and .ci/run runs exactly that command", () => {
    const commands = shellBlocks('README.md', readme).flatMap((block) => block.commands.map((command) => command.text));
    expect(commands).toContain('npm test');
    const ciLines = readDoc(root, '.ci/run').split('\n').map((line) => line.trim());
    expect(ciLines).toContain('npm test');
  });

  it('links every docs page it names, and each exists', () => {
    for (const [, target] of readme.matchAll(/\]\((docs\/[a-z-]+\.md)(?:#[^)]*)?\)/g)) expect(existsSync(join(root, target!)), target).toBe(true);
  });
});

