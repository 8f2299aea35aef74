/**
 * What `--fault NAME` accepts, for `run` (embedded) and `serve` alike: a fault (src/faults), a legitimate
 * variant (src/variants: a reading the spec leaves open, as a named stack takes it), or a stack (its
 * variants combined). Variants are registered beside the faults and wrap the reference the same way, so
 * one flag serves both; `serve --list-faults` and `serve --list-variants` say which is which.
 */
import { getFault, listFaults } from '../../faults/index.js';
import { HarnessError } from '../../errors.js';
import { closest } from '../../spelling.js';
import type { SandboxCustomize } from '../../tenant/types.js';
import { STACKS, getStack, getVariant, listVariants, stackCustomize } from '../../variants/index.js';

export interface ServedWrapper {
  name: string;
  kind: 'fault' | 'variant' | 'stack';
  customize: SandboxCustomize;
}

export function resolveWrapper(name: string): ServedWrapper {
  const fault = getFault(name);
  if (fault) return { name, kind: 'fault', customize: fault.customize };
  const variant = getVariant(name);
  if (variant) return { name, kind: 'variant', customize: variant.customize };
  const stack = getStack(name);
  if (stack) return { name, kind: 'stack', customize: stackCustomize(stack) };
  const known = [...listFaults().map((f) => f.name), ...listVariants().map((v) => v.name), ...STACKS.map((s) => s.name)];
  // The name is echoed only when it looks like one: a flag's value may be anything pasted.
  const shown = /^[A-Za-z0-9-]{1,80}$/.test(name) ? `"${name}"` : '(not shown)';
  const close = closest(name, known);
  throw new HarnessError('USAGE', `unknown fault or variant ${shown}${close ? `; did you mean "${close}"?` : ''}`, {
    field: '--fault',
    hint: `\`serve --list-faults\` and \`serve --list-variants\` list the ${known.length} names --fault accepts.`,
  });
}
