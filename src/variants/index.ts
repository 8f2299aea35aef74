/**
 * Legitimate variants of the reference, registered beside the faults (src/faults): each takes one reading
 * the spec leaves open that a named mainstream stack takes by default (types.ts). `listVariants`,
 * `getVariant`, and the stacks they stand for, each runnable as one combined variant.
 */
import { combineFaults } from '../faults/index.js';
import type { SandboxCustomize } from '../tenant/types.js';
import { variantOf } from './define.js';
import { READINGS } from './readings.js';
import { STACKS } from './stacks.js';
import type { StackDefinition, VariantDefinition } from './types.js';

export type { StackDefinition, VariantDefinition } from './types.js';
export { STACKS } from './stacks.js';

const variants: Record<string, VariantDefinition> = {};
for (const variant of READINGS.map(variantOf)) {
  if (Object.prototype.hasOwnProperty.call(variants, variant.name)) throw new Error(`two variants are named ${variant.name}`);
  variants[variant.name] = variant;
}
for (const stack of STACKS) {
  for (const name of stack.variants) if (!Object.prototype.hasOwnProperty.call(variants, name)) throw new Error(`stack ${stack.name} names no variant ${name}`);
}

export function listVariants(): VariantDefinition[] {
  return Object.values(variants).sort((a, b) => a.name.localeCompare(b.name));
}

export function getVariant(name: string): VariantDefinition | undefined {
  return Object.prototype.hasOwnProperty.call(variants, name) ? variants[name] : undefined;
}

export function getStack(name: string): StackDefinition | undefined {
  return STACKS.find((stack) => stack.name === name);
}

/** The variants of a stack, innermost first. */
export function stackVariants(stack: StackDefinition): VariantDefinition[] {
  return stack.variants.map((name) => variants[name]!);
}

/** One customisation for a stack: its variants combined (the last named wraps the others). */
export function stackCustomize(stack: StackDefinition): SandboxCustomize {
  return combineFaults(stackVariants(stack));
}
