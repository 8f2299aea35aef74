/**
 * A bench measured in parts (bench/registry.ts `parts`, the hot-path bench's driver and serve halves):
 * each part's report writes its own entry with its own record, so running one part keeps the other's
 * figures; the entry under the bench's own name goes only once every part has one.
 */
import { describe, expect, it } from 'vitest';
import { withFigures, withParts, type Figures } from '../../bench/figures.js';
import type { BenchReport } from '../../bench/registry.js';

const bench = { name: 'hot-path', parts: ['hot-path-driver', 'hot-path-serve'] };
const context = { commit: 'abc', machine: { cores: 2, loadAverage: [1, 1, 1] as [number, number, number], platform: 'linux-x64' }, method: ['m'] };
const report = (name: string, value: number): BenchReport => ({ name, command: `BENCH_HOT_ONLY=${name.slice(9)} npm run bench -- hot-path`, metrics: [{ label: 'x', value, unit: 'ms' }], notes: [] });
const whole: Figures = { 'hot-path': { at: 't0', node: 'v20', metrics: { 'serve this: x': { value: 1, unit: 'ms' } } } };

describe('a bench in parts', () => {
  it('one part written keeps the whole entry (it still holds the other part\'s figures) and records how to run the part', () => {
    const after = withParts(withFigures(whole, report('hot-path-driver', 2), 't1', context), bench);
    expect(Object.keys(after)).toEqual(['hot-path', 'hot-path-driver']);
    expect(after['hot-path-driver']).toMatchObject({ at: 't1', command: 'BENCH_HOT_ONLY=driver npm run bench -- hot-path', metrics: { x: { value: 2, unit: 'ms' } } });
  });

  it('the other part written: the whole entry goes, and each part keeps its own figures and record', () => {
    const one = withParts(withFigures(whole, report('hot-path-driver', 2), 't1', context), bench);
    const both = withParts(withFigures(one, report('hot-path-serve', 3), 't2', { ...context, commit: 'def' }), bench);
    expect(Object.keys(both)).toEqual(['hot-path-driver', 'hot-path-serve']);
    expect(both['hot-path-driver']).toMatchObject({ at: 't1', commit: 'abc', metrics: { x: { value: 2 } } });
    expect(both['hot-path-serve']).toMatchObject({ at: 't2', commit: 'def', metrics: { x: { value: 3 } } });
  });

  it('a bench without parts is left alone', () => {
    expect(withParts(whole, { name: 'hot-path' })).toBe(whole);
  });
});
