/**
 * docs/coverage.md carries generated sections (the coverage table from the catalogue, the mutation-score
 * summary of docs/mutation-score.md) and docs/faults.md a generated fault list. This test only compares: a stale
 * part fails with the command that writes it (`npm run docs`); no test rewrites a file.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package.js';
import { README_SECTIONS, SECTIONS_DOC, expectedFaultsDoc, expectedReadmeSection, readDoc, readmeSection, staleMessage } from '../../scripts/generated-docs.js';

const root = packageRoot();

describe('generated documentation', () => {
  it.each(README_SECTIONS)(`${SECTIONS_DOC}'s %s section is current`, (name) => {
    expect(existsSync(join(root, 'docs', 'mutation-score.md')), 'docs/mutation-score.md is missing: run `npm run docs`').toBe(true);
    const expected = expectedReadmeSection(name, readDoc(root, 'docs/mutation-score.md'));
    expect(readmeSection(readDoc(root, SECTIONS_DOC), name), staleMessage(`${SECTIONS_DOC}'s ${name} section`)).toBe(expected);
  });

  it("docs/faults.md's fault list is the registry's", () => {
    const current = readDoc(root, 'docs/faults.md');
    expect(current, staleMessage('docs/faults.md')).toBe(expectedFaultsDoc(current));
  });
});
