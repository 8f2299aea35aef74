/**
 * `run`'s V8 settings (src/cli/v8-footprint.ts): which flags it sets, that the user's own node options win,
 * and, in a child process of this very node, that setting them after start-up takes effect. A node that
 * stopped honouring `v8.setFlagsFromString` would make the run's memory figure quietly regress; this
 * catches it without timing anything.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RUN_V8_FLAGS, tuneV8ForShortRun, userNodeOptions } from '../../src/cli/v8-footprint.js';
import { assertBuilt, ROOT } from './support.js';

function tune(userOptions: string[], v8Major = 11): string[] {
  const set: string[] = [];
  const applied = tuneV8ForShortRun(userOptions, (flag) => set.push(flag), v8Major);
  expect(applied).toEqual(set);
  return set;
}

describe('tuneV8ForShortRun', () => {
  it('sets every flag when the user set none', () => {
    expect(tune(['--import', '--enable-source-maps'])).toEqual(RUN_V8_FLAGS.map(({ flag }) => flag));
  });

  it('leaves a flag the user set, in either spelling, and sets the others', () => {
    expect(tune(userNodeOptions(['--max_semi_space_size=64'], ''))).toEqual(['--no-turbofan', '--optimize-for-size']);
    expect(tune(userNodeOptions([], '--opt  --max-old-space-size=512'))).toEqual(['--semi-space-growth-factor=1', '--optimize-for-size']);
    expect(tune(userNodeOptions(['--no-optimize-for-size'], '--turbofan --min-semi-space-size=2'))).toEqual([]);
  });

  it('sets --optimize-for-size only below V8 13 (Node 24), where it was measured to pay', () => {
    expect(tune([], 12)).toContain('--optimize-for-size');
    expect(tune([], 13)).toEqual(['--semi-space-growth-factor=1', '--no-turbofan']);
  });

  it('reads node options by name only', () => {
    expect(userNodeOptions(['--max-semi-space-size=8', 'script.js'], ' --turbofan=true  -r x ')).toEqual(['--max-semi-space-size', '--turbofan']);
  });
});

// The young generation of a process that keeps what it allocates: it grows to its maximum (32 MB on
// Node 20 to 24) with V8's defaults, and stays near its start size once the flags are set.
const CHILD = `
import { getHeapSpaceStatistics } from 'node:v8';
const { tuneV8ForShortRun } = await import(new URL('dist/src/cli/v8-footprint.js', process.argv[1]).href);
if (process.argv[2] === 'tuned') tuneV8ForShortRun([]);
const keep = [];
for (let i = 0; i < 400_000; i += 1) keep.push({ i, text: 'x' + i });
const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
process.stdout.write(String(young.space_size));
`;

function youngGenerationBytes(mode: 'default' | 'tuned'): number {
  const root = pathToFileURL(ROOT.endsWith('/') ? ROOT : `${ROOT}/`).href;
  const child = spawnSync(process.execPath, ['--input-type=module', '--eval', CHILD, root, mode], { encoding: 'utf8', timeout: 30_000 });
  expect(child.status, child.stderr).toBe(0);
  expect(child.stderr).toBe('');
  return Number(child.stdout);
}

describe('the flags set after start-up take effect', () => {
  it('keeps the young generation at a quarter of its default size or less', () => {
    assertBuilt();
    const byDefault = youngGenerationBytes('default');
    const tuned = youngGenerationBytes('tuned');
    expect(byDefault).toBeGreaterThan(0);
    expect(tuned).toBeLessThanOrEqual(byDefault / 4);
  });
});
