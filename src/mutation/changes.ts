/**
 * What a verification run starts the sandbox with, by name: a fault (src/faults), a legitimate variant
 * (src/variants) or a stack (its variants combined). The worker processes look runs up here.
 */
import { getFault } from '../faults/index.js';
import type { SandboxCustomize } from '../tenant/types.js';
import { getStack, getVariant, stackCustomize } from '../variants/index.js';

export function customizeFor(name: string): SandboxCustomize | undefined {
  const fault = getFault(name);
  if (fault !== undefined) return fault.customize;
  const variant = getVariant(name);
  if (variant !== undefined) return variant.customize;
  const stack = getStack(name);
  return stack === undefined ? undefined : stackCustomize(stack);
}
