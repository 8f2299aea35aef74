/**
 * The variant registry and the variants' judging, without running any suite: declarations warn on SHOULD
 * checks only, each is declared once (its name on one line of src/ besides its stacks) and names its stack,
 * the stacks name registered variants, no name is both a fault and a variant, and the judge tells a reading that passes the default run from one
 * that fails a MUST or warns otherwise than declared.
 */
import { describe, expect, test } from 'vitest';
import { getFault, listFaults } from '../../src/faults/index.js';
import { requirement } from '../../src/requirements/catalogue.js';
import { getVariant, listVariants, STACKS, stackVariants } from '../../src/variants/index.js';
import { variantOf, type VariantEntry } from '../../src/variants/define.js';
import { customizeFor } from '../../src/mutation/changes.js';
import { judgeVariant, planSubject, stackSubject, variantSubject } from '../../src/mutation/verify-variants.js';
import { SMOKE_IDS } from '../../src/mutation/verify-plan.js';
import { linesNaming } from '../faults/support/name-lines.js';


describe('variant registry', () => {
  test('at least fifteen variants, naming their stack, warning on SHOULD checks only', () => {
    const all = listVariants();
    expect(all.length).toBeGreaterThanOrEqual(15);
    for (const variant of all) {
      expect(getVariant(variant.name)).toBe(variant);
      expect(variant.stacks.length, variant.name).toBeGreaterThan(10);
      for (const id of variant.warns) expect(requirement(id).level, `${variant.name}: ${id}`).toBe('SHOULD');
    }
    expect(getVariant('constructor')).toBeUndefined();
  });

  test('a variant is declared once: its name stands on one line of src/ besides the stacks that hold it', () => {
    // stacks.ts names its variants by a type derived from the table (VariantName): a name there that is not
    // a variant does not compile, so the table stays the one place a variant is declared.
    const lines = linesNaming(listVariants().map((variant) => variant.name));
    for (const variant of listVariants()) {
      const elsewhere = lines.get(variant.name)!.filter((at) => at.file !== 'src/variants/stacks.ts');
      expect(elsewhere.map((at) => `${at.file}:${at.line}`), variant.name).toEqual([expect.stringMatching(/^src\/variants\/readings\.ts:\d+$/)]);
      const inStacks = lines.get(variant.name)!.length - elsewhere.length;
      expect(inStacks, variant.name).toBe(STACKS.filter((stack) => (stack.variants as readonly string[]).includes(variant.name)).length);
    }
  });

  test('no name is both a fault and a variant or a stack, and every name resolves to a sandbox customisation', () => {
    const faults = new Set(listFaults().map((fault) => fault.name));
    const names = [...listVariants().map((variant) => variant.name), ...STACKS.map((stack) => stack.name)];
    expect(names.filter((name) => faults.has(name))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
    for (const name of [...names, listFaults()[0]!.name]) expect(customizeFor(name), name).toBeDefined();
    expect(customizeFor('no-such-change')).toBeUndefined();
    expect(getFault('headers-first-line')).toBeUndefined();
  });

  test('a stack covers Go, Node and FastAPI, each with registered variants', () => {
    expect(STACKS.map((stack) => stack.title).join(' ')).toMatch(/Go net\/http.*Node http.*FastAPI/s);
    for (const stack of STACKS) expect(stackVariants(stack).length).toBe(stack.variants.length);
  });

  test('variantOf refuses a MUST or INFO warning, an unknown touched check, no stack and no behaviour', () => {
    const entry = (change: Partial<VariantEntry>): VariantEntry =>
      ({ name: 'test-reading', description: 'test double', area: 'tokens', stacks: 'a stack', warns: ['TOK-23'], wrap: (handler) => handler, ...change });
    expect(() => variantOf(entry({ warns: ['TOK-01'] }))).toThrow(/not a SHOULD/);
    expect(() => variantOf(entry({ warns: ['CRED-11'] }))).toThrow(/not a SHOULD/);
    expect(() => variantOf(entry({ touches: ['NO-SUCH-1' as 'TOK-01'] }))).toThrow(/not in the catalogue/);
    expect(() => variantOf(entry({ stacks: ' ' }))).toThrow(/names no stack/);
    expect(() => variantOf(entry({ wrap: undefined }))).toThrow(/changes nothing/);
    expect(variantOf(entry({})).warns).toEqual(['TOK-23']);
  });
});

describe('variant judging', () => {
  const variant = variantSubject(getVariant('unknown-listener-401')!);
  const plan = planSubject(variant);
  const report = (states: Record<string, 'passed' | 'failed' | 'errored'>) => ({
    plan,
    report: { results: Object.entries(states).map(([id, state]) => ({ id, state })), harnessErrors: [] },
    durationMs: 1,
  });

  test('a variant runs its declarations\' groups plus the smoke checks; a stack the whole catalogue', () => {
    expect(plan.groups).toEqual(['webhook-common']);
    for (const id of SMOKE_IDS) expect(plan.ids).toContain(id);
    expect(planSubject(stackSubject(STACKS[0]!)).ids).toEqual([]);
  });

  test('verified: exactly the declared SHOULD checks fail, every other check passes', () => {
    expect(judgeVariant(variant, report({ 'WH-27': 'failed', 'WH-01': 'passed', 'OWN-01': 'passed' })).verified).toBe(true);
  });

  test('a failed MUST fails the default run; a warning not declared, or one that did not fail, is not verified', () => {
    const must = judgeVariant(variant, report({ 'WH-27': 'failed', 'WH-01': 'failed' }));
    expect([must.passesDefault, must.verified, must.mustFailures.map((n) => n.id)]).toEqual([false, false, ['WH-01']]);
    const extra = judgeVariant(variant, report({ 'WH-27': 'failed', 'WH-19': 'failed' }));
    expect([extra.passesDefault, extra.verified, extra.unexpected.map((n) => n.id)]).toEqual([true, false, ['WH-19']]);
    const silent = judgeVariant(variant, report({ 'WH-27': 'passed' }));
    expect([silent.passesDefault, silent.verified, silent.missing.map((n) => n.id)]).toEqual([true, false, ['WH-27']]);
    const errored = judgeVariant(variant, report({ 'WH-27': 'failed', 'WH-19': 'errored' }));
    expect(errored.passesDefault).toBe(false);
  });
});
