/**
 * A suite that cannot declare its checks errors them with the reason, never leaves them "not implemented"
 * (which reads as skipped) and never declares one twice; a group without a suite file stays "not
 * implemented". Two broken suite files, written for this test, run through the engine's runner and
 * collector: one throws when imported, one has two groups whose bodies both throw. No check reaches a
 * target, so the run context is never read. Under both runners: the suites' own scheduler (what the engine
 * runs) and vitest (which still runs the suites).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunContext } from '../../src/engine/check-meta.js';
import { RunCollector } from '../../src/engine/collector.js';
import { Emitter } from '../../src/engine/emitter.js';
import { resolveSelection } from '../../src/engine/selection.js';
import { discoverSuites } from '../../src/engine/suite-files.js';
import type { CheckResult } from '../../src/engine/types.js';
import { openSuiteRunner } from '../../src/engine/vitest-bridge.js';
import { openSchedulerRunner, type SuiteRunner } from '../../src/engine/suite-runner.js';
import { packageRoot } from '../../src/package.js';

const SUPPORT = pathToFileURL(join(packageRoot(), 'suites', 'support')).href;

/** Throws while Node (or vite) imports it. */
const THROWS_AT_IMPORT = `throw new TypeError('owners suite exploded at import');\n`;

/** Two groups whose bodies both throw before they declare anything. */
const THROWS_IN_BODIES = `
import { group } from '${SUPPORT}/group.ts';
group('first pagination group', () => {
  throw new RangeError('first body broke');
});
group('second pagination group', () => {
  throw new Error('second body broke');
});
`;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ac-broken-suite-'));
  await writeFile(join(work, 'owners.suite.ts'), THROWS_AT_IMPORT);
  await writeFile(join(work, 'pagination.suite.ts'), THROWS_IN_BODIES);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const RUNNERS: Record<string, () => Promise<SuiteRunner>> = {
  scheduler: async () => openSchedulerRunner(discoverSuites(packageRoot(), 'source').scheduler),
  vitest: () => openSuiteRunner({ entry: discoverSuites(packageRoot(), 'source').entry, form: 'source', testTimeoutMs: 10_000 }),
};

describe.each(Object.keys(RUNNERS))('a suite that cannot declare its checks (%s)', (runnerName) => {
  test('errors its selected checks with the reason; a group without a suite file stays not implemented', async () => {
    const { requirements } = resolveSelection({ only: ['OWN-01', 'OWN-02', 'PAGE-01', 'PAGE-02', 'PAGE-03', 'TOK-01'], skip: [] });
    const results = new Map<string, CheckResult>();
    // tokens has no suite file in this run: it must read "not implemented", whatever else broke.
    const collector = new RunCollector(requirements, results, new Emitter([]), new Set(['owners', 'pagination']));
    const idsOf = (group: string): string[] => collector.idsOf(group);
    const suites = [
      { group: 'owners', url: pathToFileURL(join(work, 'owners.suite.ts')).href, ids: idsOf('owners') },
      { group: 'pagination', url: pathToFileURL(join(work, 'pagination.suite.ts')).href, ids: idsOf('pagination') },
    ];
    const runner = await RUNNERS[runnerName]!();
    const outcomes: string[] = [];
    try {
      // Never read: every selected check errors before it could reach a target.
      const context = { runId: 'broken-suite' } as unknown as RunContext;
      const sink = {
        checkStarted: (id: string) => collector.checkStarted(id),
        check: (outcome: Parameters<RunCollector['check']>[0]) => (outcomes.push(outcome.id), collector.check(outcome)),
        runFailed: (errors: string[]) => collector.runFailed(errors),
      };
      await runner.run({ ids: collector.ids(), suites, context }, sink);
      collector.finishAll();
    } finally {
      await runner.close();
    }
    const byId = Object.fromEntries([...results.values()].map((result) => [result.id, result]));
    expect(Object.keys(byId).sort()).toEqual(['OWN-01', 'OWN-02', 'PAGE-01', 'PAGE-02', 'PAGE-03', 'TOK-01']);
    for (const id of ['OWN-01', 'OWN-02']) {
      expect(byId[id], id).toMatchObject({ state: 'errored', harnessError: { code: 'INTERNAL' } });
      expect(byId[id]!.harnessError!.message).toContain('suite owners failed to load: TypeError: owners suite exploded at import');
    }
    // The first reason stands for the whole suite.
    for (const id of ['PAGE-01', 'PAGE-02', 'PAGE-03']) {
      expect(byId[id], id).toMatchObject({ state: 'errored', harnessError: { code: 'INTERNAL' } });
      expect(byId[id]!.harnessError!.message).toContain('suite pagination failed while declaring "first pagination group": RangeError: first body broke');
    }
    expect(byId['TOK-01']).toMatchObject({ state: 'skipped', reason: 'not implemented: no suite file for group tokens' });
    // Each check was declared failing once, though both of pagination's bodies threw.
    for (const id of ['PAGE-01', 'PAGE-02', 'PAGE-03']) expect(outcomes.filter((seen) => seen === id), id).toHaveLength(1);
  }, 60_000);
});
