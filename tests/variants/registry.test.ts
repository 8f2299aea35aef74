/**
 * The variant registry and the variants' judging, without running any suite: declarations warn on SHOULD
 * checks only, every variant file is registered and names its stack, the stacks name registered variants,
 * no name is both a fault and a variant, and the judge tells a reading that passes the default run from one
 * that fails a MUST or warns otherwise than declared.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/package.js';
import { getFault, listFaults } from '../../src/faults/index.js';
import { requirement } from '../../src/requirements/catalogue.js';
import { getVariant, listVariants, STACKS, stackVariants } from '../../src/variants/index.js';
import { defineVariant } from '../../src/variants/define.js';
import { defineFault } from '../../src/faults/support/define.js';
import { customizeFor } from '../../src/mutation/changes.js';
import { judgeVariant, planSubject, stackSubject, variantSubject } from '../../src/mutation/verify-variants.js';
import { SMOKE_IDS } from '../../src/mutation/verify-plan.js';


describe('variant registry', () => {
  test('at least fifteen variants, each named after its file, naming its stack, warning on SHOULD checks only', () => {
    const all = listVariants();
    expect(all.length).toBeGreaterThanOrEqual(15);
    const files = readdirSync(join(packageRoot(), 'src', 'variants', 'readings'))
      .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
      .map((file) => file.replace(/\.ts$/, ''))
      .sort();
    expect(all.map((variant) => variant.name).sort()).toEqual(files);
    for (const variant of all) {
      expect(getVariant(variant.name)).toBe(variant);
      expect(variant.stacks.length, variant.name).toBeGreaterThan(10);
      for (const id of variant.warns) expect(requirement(id).level, `${variant.name}: ${id}`).toBe('SHOULD');
    }
    expect(getVariant('constructor')).toBeUndefined();
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

  test('defineVariant refuses a MUST or INFO warning and an explanation', () => {
    const change = (breaks: Parameters<typeof defineFault>[0]['breaks'], explains = {}) =>
      defineFault({ name: 'test-reading', description: 'test double', breaks, explains, wrap: (handler) => handler });
    expect(() => defineVariant({ area: 'tokens', stacks: 'a stack' }, change(['TOK-01']))).toThrow(/not a SHOULD/);
    expect(() => defineVariant({ area: 'tokens', stacks: 'a stack' }, change(['CRED-11']))).toThrow(/not a SHOULD/);
    expect(() => defineVariant({ area: 'tokens', stacks: 'a stack' }, change(['TOK-23'], { 'TOK-01': 'because' }))).toThrow(/explains nothing/);
    expect(defineVariant({ area: 'tokens', stacks: 'a stack' }, change(['TOK-23'])).warns).toEqual(['TOK-23']);
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
