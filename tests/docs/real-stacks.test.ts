/**
 * docs/mutation-score.md is generated, except its Real stacks section (runs of fixtures/stacks, measured by
 * hand): regenerating the doc keeps that section where it was, after the generated Stacks section.
 */
import { describe, expect, it } from 'vitest';
import { readDoc, realStacksSection, withRealStacks } from '../../scripts/generated-docs.js';
import { packageRoot } from '../../src/package.js';

const GENERATED = '# Mutation score\n\nintro\n\n## Stacks\n\n| a |\n\n## Requirements and the faults that break them\n\n| b |\n';
const SECTION = '## Real stacks\n\n### FastAPI\n\nmeasured\n';

describe('the Real stacks section of docs/mutation-score.md', () => {
  it('is kept after the Stacks section when the doc is generated again', () => {
    const current = withRealStacks(GENERATED, `# old\n\n## Stacks\n\nold table\n\n${SECTION}\n## Requirements and the faults that break them\n\nold\n`);
    expect(current).toBe(`# Mutation score\n\nintro\n\n## Stacks\n\n| a |\n\n${SECTION}\n## Requirements and the faults that break them\n\n| b |\n`);
    expect(withRealStacks(GENERATED, current)).toBe(current);
  });

  it('is absent from a doc without one, and kept at the end of a doc without a Stacks section', () => {
    expect(withRealStacks(GENERATED, GENERATED)).toBe(GENERATED);
    expect(withRealStacks('# Mutation score\n\nx\n', SECTION)).toBe(`# Mutation score\n\nx\n\n${SECTION}`);
  });

  it('is in the committed doc', () => {
    expect(realStacksSection(readDoc(packageRoot(), 'docs/mutation-score.md'))).toMatch(/^## Real stacks\n[\s\S]*### FastAPI \+ pydantic \+ PyJWT/);
  });
});
