/**
 * The suites' own scheduler (suites/support/scheduler.ts), what the engine runs the checks with: the order
 * of the plan (every group at once, a `group`'s checks one after the other, the clock-moving checks after
 * every other check, alone), `--concurrency` checks in flight in all, only the selected checks, each outcome
 * as the engine's collector reads it (passed, skipped with its note, failed with its error), and a stop
 * that returns at once with nothing started after it. A suite file written for the test declares its checks
 * through group.ts's `declareCheck` (check.ts's own wrapper, with a client for a target, is covered by the
 * engine's end-to-end runs); no check reaches a target.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RawCheckOutcome, RunContext } from '../../src/engine/check-meta.js';
import { packageRoot } from '../../src/package.js';
import { runChecks } from '../../suites/support/scheduler.js';

const SUPPORT = pathToFileURL(join(packageRoot(), 'suites', 'support')).href;
/** How long each fixture check holds its slot. */
const CHECK_MS = 250;

/**
 * Every check logs its start and end on globalThis.__schedulerLog; OWN-04 skips, OWN-05 fails, AUTH-07 moves
 * the clock, PAGE-01 and PAGE-02 share a group whose checks run one at a time.
 */
const SUITE = `
import { declareCheck, group } from '${SUPPORT}/group.ts';
const log = (globalThis.__schedulerLog ??= []);
const body = (id, then) => async (context) => {
  log.push({ id, at: 'start', t: performance.now() });
  await new Promise((resolve) => setTimeout(resolve, ${CHECK_MS}));
  log.push({ id, at: 'end', t: performance.now() });
  if (then) then(context);
};
group.concurrent('concurrent owners', () => {
  for (const id of ['OWN-01', 'OWN-02', 'OWN-03']) declareCheck(id, id, false, body(id));
  declareCheck('OWN-04', 'OWN-04', false, body('OWN-04', (check) => check.skip('no owners here')));
  declareCheck('OWN-05', 'OWN-05', false, body('OWN-05', () => { throw new Error('Test timed out in 40ms.'); }));
  declareCheck('AUTH-07', 'AUTH-07', true, body('AUTH-07'));
  declareCheck('OWN-06', 'OWN-06', false, body('OWN-06'));
});
group('one at a time', () => {
  for (const id of ['PAGE-01', 'PAGE-02']) declareCheck(id, id, false, body(id));
});
`;

type Entry = { id: string; at: 'start' | 'end'; t: number };
const log = (): Entry[] => ((globalThis as { __schedulerLog?: Entry[] }).__schedulerLog ??= []);

let dir: string;
let url: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-scheduler-'));
  await writeFile(join(dir, 'owners.suite.ts'), SUITE);
  url = pathToFileURL(join(dir, 'owners.suite.ts')).href;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SELECTED = ['OWN-01', 'OWN-02', 'OWN-03', 'OWN-04', 'OWN-05', 'AUTH-07', 'PAGE-01', 'PAGE-02'];

function sinkFor(outcomes: RawCheckOutcome[], started: string[]) {
  return { checkStarted: (id: string) => started.push(id), check: (outcome: RawCheckOutcome) => outcomes.push(outcome), runFailed: (errors: string[]) => { throw new Error(errors.join('; ')); } };
}

function context(runId: string, concurrency: number): RunContext {
  // Only what the scheduler and the slots read: the fixture's checks never reach a target.
  return { runId, concurrency } as unknown as RunContext;
}

describe('the suites\' scheduler', () => {
  test('runs the selected checks in the plan\'s order, within --concurrency, and reports each outcome', async () => {
    log().length = 0;
    const outcomes: RawCheckOutcome[] = [];
    const started: string[] = [];
    await runChecks({ context: context('scheduler-order', 2), suites: [{ group: 'owners', url, ids: SELECTED }], ids: SELECTED }, sinkFor(outcomes, started));
    const entries = log();
    // OWN-06 was not selected: never started, never reported.
    expect(entries.some((entry) => entry.id === 'OWN-06')).toBe(false);
    expect(started.sort()).toEqual([...SELECTED].sort());
    expect(outcomes.map((outcome) => outcome.id).sort()).toEqual([...SELECTED].sort());
    // At most two in flight at any moment.
    let inFlight = 0;
    for (const entry of [...entries].sort((a, b) => a.t - b.t || (a.at === 'end' ? -1 : 1))) {
      inFlight += entry.at === 'start' ? 1 : -1;
      expect(inFlight).toBeLessThanOrEqual(2);
    }
    const time = (id: string, at: Entry['at']): number => entries.find((entry) => entry.id === id && entry.at === at)!.t;
    // The group that runs one at a time: PAGE-02 starts after PAGE-01 ended.
    expect(time('PAGE-02', 'start')).toBeGreaterThanOrEqual(time('PAGE-01', 'end'));
    // The clock-moving check starts after every other check ended.
    const lastOther = Math.max(...entries.filter((entry) => entry.id !== 'AUTH-07' && entry.at === 'end').map((entry) => entry.t));
    expect(time('AUTH-07', 'start')).toBeGreaterThanOrEqual(lastOther);
    const byId = Object.fromEntries(outcomes.map((outcome) => [outcome.id, outcome]));
    expect(byId['OWN-01']).toMatchObject({ state: 'passed', errors: [] });
    expect(byId['OWN-04']).toMatchObject({ state: 'skipped', note: 'no owners here' });
    expect(byId['OWN-05']).toMatchObject({ state: 'failed', errors: [{ name: 'Error', message: 'Test timed out in 40ms.' }] });
  });

  test('a stop returns at once: the checks waiting for a slot never start, and nothing is reported after it', async () => {
    log().length = 0;
    const outcomes: RawCheckOutcome[] = [];
    const controller = new AbortController();
    const run = runChecks({ context: context('scheduler-stop', 1), suites: [{ group: 'owners', url, ids: SELECTED }], ids: SELECTED, signal: controller.signal }, sinkFor(outcomes, []));
    // One slot: the first check holds it for CHECK_MS, every other check waits.
    while (!log().some((entry) => entry.at === 'start')) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await run;
    // Returned before the check holding the slot ended (its body goes on alone).
    expect(log().filter((entry) => entry.at === 'end')).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, CHECK_MS * 3));
    expect(log().filter((entry) => entry.at === 'start')).toHaveLength(1);
    expect(outcomes).toEqual([]);
  });
});
