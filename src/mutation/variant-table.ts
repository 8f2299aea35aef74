/**
 * The legitimate variants on the mutation-score page (docs/mutation-score.md): each variant with the
 * stacks it stands for and the SHOULD checks it warns on, then the stacks (their variants combined) run
 * against the whole catalogue. Stable facts only, like the score table.
 */
import { compactIds } from './compact-ids.js';
import type { VariantOutcome } from './verify-variants.js';

function verdict(outcome: VariantOutcome): string {
  if (outcome.verified) return 'yes';
  return outcome.passesDefault ? '**no** (warnings differ from the declaration)' : '**no** (a MUST fails)';
}

function list(ids: readonly string[]): string {
  return ids.length === 0 ? '–' : compactIds(ids);
}

export function renderVariantSections(outcomes: readonly VariantOutcome[]): string[] {
  const variants = outcomes.filter((outcome) => outcome.kind === 'variant').sort((a, b) => a.name.localeCompare(b.name));
  const stacks = outcomes.filter((outcome) => outcome.kind === 'stack');
  const lines: string[] = [];
  lines.push('## Legitimate variants');
  lines.push('');
  lines.push(
    'The mirror image of the faults (src/variants): each takes one reading the spec leaves open, the one the named stack takes by default. ' +
      'Verified: no MUST check fails (the default run exits 0) and, with `--strict`, exactly the SHOULD checks it warns on fail; ' +
      'the checks it touches change their answer and still pass. The reference is the Node http reading: repeated header lines joined ' +
      'with `, `, `JSON.parse` (the last duplicate member wins), 413 for a body over the limit.',
  );
  lines.push('');
  lines.push('| Variant | Stands for | Warns (fails with `--strict`) | Touches (still pass) | Verified |');
  lines.push('|---|---|---|---|---|');
  for (const outcome of variants) {
    lines.push(`| \`${outcome.name}\` | ${outcome.stacks.replace(/\|/g, '\\|')} | ${list(outcome.warns)} | ${list(outcome.touches)} | ${verdict(outcome)} |`);
  }
  lines.push('');
  lines.push('## Stacks');
  lines.push('');
  lines.push('Each stack\'s variants combined, run against the whole catalogue: an implementation on that stack, with its defaults, that follows service.md.');
  lines.push('');
  lines.push('| Stack | Variants | Checks run | MUST failed | Warns (fails with `--strict`) | Default run passes |');
  lines.push('|---|---|---|---|---|---|');
  for (const outcome of stacks) {
    const variantNames = outcome.variants.map((name) => `\`${name}\``).join(', ');
    lines.push(`| ${outcome.stacks} | ${variantNames} | ${outcome.selected} | ${outcome.mustFailures.length} | ${list(outcome.warns)} | ${verdict(outcome)} |`);
  }
  lines.push('');
  return lines;
}
