/**
 * `group(title, body)` and `group.concurrent(title, body)`: a suite file's block of checks, h2spec style (one
 * group per spec section). A suite file records its groups when it is first imported; the engine's one test
 * file (run-entry.ts) declares them for each run. Why not vitest's `describe` at the top of the file:
 *
 * - vitest runs the files of one worker one after another, so the checks that only wait (a run that must
 *   not appear, a key rotation) would wait group after group. Declared in one file, every group runs at
 *   once, within the run's `--concurrency`.
 * - the worker thread stays for the next run (another target: the fault self-verification runs hundreds),
 *   and Node imports a module once: what the file recorded is declared again, nothing is imported again.
 *
 * Checks of a `group` run one at a time (each may send many requests at once); checks of a
 * `group.concurrent` overlap. A check that moves the target's clock is declared last of all, alone, after
 * every group has finished (check.ts declares through `declareCheck`). Which check runs when, within the
 * run's `--concurrency`, is check-slots.ts's to say: vitest starts every test at once.
 */
import { beforeAll, describe, inject, test, type TestFunction } from 'vitest';
import { errorLine, HarnessError, SUITE_BUG_HINT } from '../../src/errors.js';
import { requirement, type RequirementId } from '../../src/requirements/catalogue.js';
import { CHECKS_IN_FLIGHT, type SuiteToLoad } from '../../src/engine/check-meta.js';
import { POLL_MS, sleep } from './webhook-expect.js';
import { inSlot, runSlots, SLOT_PRIORITY, type SlotPriority } from './check-slots.js';

interface GroupDeclaration {
  title: string;
  concurrent: boolean;
  body: () => void;
}

/** What a suite file recorded, by suite group (file name without `.suite.*`). */
const recorded = new Map<string, GroupDeclaration[]>();
/** The suite group whose file is being imported: its group() calls are recorded under it. */
let importing: string | undefined;

function record(title: string, concurrent: boolean, body: () => void): void {
  if (importing === undefined) {
    throw new Error(`group "${title}" was declared outside the engine: suite files run through suites/support/run-entry (access-conformance run)`);
  }
  recorded.get(importing)!.push({ title, concurrent, body });
}

/** A group whose checks run one at a time. */
export function group(title: string, body: () => void): void {
  record(title, false, body);
}

/** A group whose checks run concurrently (the engine bounds how many are in flight). */
group.concurrent = (title: string, body: () => void): void => record(title, true, body);

/** Imports a suite file once per worker and returns what it recorded. */
export async function loadSuite(name: string, url: string): Promise<readonly GroupDeclaration[]> {
  const known = recorded.get(name);
  if (known) return known;
  recorded.set(name, []);
  importing = name;
  try {
    await import(url);
  } catch (error) {
    // Not remembered as loaded: the next run tries again and reports the same error.
    recorded.delete(name);
    throw error;
  } finally {
    importing = undefined;
  }
  return recorded.get(name)!;
}

interface DeferredCheck {
  title: string;
  fn: TestFunction;
  /** About how long the check waits by design (CheckOptions.waitsMs). */
  waitsMs?: number;
}

/** How check() declares a test in the group being declared. */
interface Declaring {
  concurrent: boolean;
  clock: DeferredCheck[];
  /** The run's checks that mostly wait, taken out of their concurrent groups. */
  waiting: DeferredCheck[];
  /** The group's own tests, declared in its describe. */
  tests: DeferredCheck[];
  /** IDs the suite's groups declared so far (a group body that throws leaves the rest undeclared). */
  declared: Set<string>;
}

let declaring: Declaring | undefined;

/**
 * A suite as the entry hands it over: what it recorded, and the IDs the run selected from it; or, when its
 * file could not be imported, why (it then declared nothing).
 */
export interface SuiteToDeclare extends Pick<SuiteToLoad, 'group' | 'ids'> {
  declarations: readonly GroupDeclaration[];
  loadError?: string;
}

/** How long the clock-moving checks wait for check bodies that outlived their test (timed out, still running). */
const STRAY_CHECKS_WAIT_MS = 15_000;

/**
 * Check bodies still running. vitest fails a check at its timeout but cannot stop its body: the engine's
 * thread reads this count (src/engine/suite-pool.ts) and is not kept for another target while one still
 * runs, and the clock-moving checks wait for it.
 */
const IN_FLIGHT = Symbol.for(CHECKS_IN_FLIGHT);
type InFlightCounter = { [IN_FLIGHT]?: number };

/** check() counts its body in (+1) and out (-1). */
export function checkBodyRunning(change: 1 | -1): void {
  const counter = globalThis as InFlightCounter;
  counter[IN_FLIGHT] = (counter[IN_FLIGHT] ?? 0) + change;
}

function checksInFlight(): number {
  return (globalThis as InFlightCounter)[IN_FLIGHT] ?? 0;
}

/** A test for a selected check that cannot run: it errors with the reason (a harness error, exit 2). */
export function declareFailing(id: string, why: string): void {
  test(`${id} ${requirement(id as RequirementId).text}`, () => {
    throw new HarnessError('INTERNAL', why, { hint: SUITE_BUG_HINT });
  });
}

/**
 * Declares the given suites' groups in the current vitest file: first the checks that mostly wait (below),
 * then every group concurrent with the others, then the clock-moving checks they deferred, one at a time,
 * once every group has finished. A suite that failed to load, or a group body that throws, errors that
 * suite's undeclared checks with the (first) reason; the other groups run.
 *
 * The group bodies run here, before any describe: a check that mostly waits (CheckOptions.waitsMs: a watch
 * for a run that must not appear, a key rotation to be picked up) is taken out of its concurrent group and
 * started first, longest first, so that its waiting overlaps the other checks' work. Started in its
 * group's turn, the waiting checks held most of the run's `--concurrency` at once while nothing else ran,
 * and the last of them ended the run alone: a third of the embedded run's checks phase (BENCHMARKS.md).
 */
export function declareSuites(suites: readonly SuiteToDeclare[]): void {
  const clock: DeferredCheck[] = [];
  const waiting: DeferredCheck[] = [];
  const groups: Array<{ title: string; concurrent: boolean; tests: DeferredCheck[] }> = [];
  // By group, the first reason kept: two bodies of one suite that throw must not declare its checks twice.
  const broken = new Map<string, { suite: SuiteToDeclare; declared: Set<string>; why: string }>();
  const fail = (suite: SuiteToDeclare, declared: Set<string>, why: string): void => {
    if (!broken.has(suite.group)) broken.set(suite.group, { suite, declared, why });
  };
  for (const suite of suites) {
    const declared = new Set<string>();
    if (suite.loadError !== undefined) fail(suite, declared, suite.loadError);
    for (const declaration of suite.declarations) {
      const tests: DeferredCheck[] = [];
      declaring = { concurrent: declaration.concurrent, clock, waiting, tests, declared };
      try {
        declaration.body();
      } catch (error) {
        fail(suite, declared, `suite ${suite.group} failed while declaring "${declaration.title}": ${errorLine(error)}`);
      } finally {
        declaring = undefined;
      }
      groups.push({ title: declaration.title, concurrent: declaration.concurrent, tests });
    }
  }
  if (waiting.length > 0) {
    describe.concurrent('checks that mostly wait, started first', () => {
      for (const deferred of [...waiting].sort((a, b) => (b.waitsMs ?? 0) - (a.waitsMs ?? 0))) test(deferred.title, deferred.fn);
    });
  }
  for (const { title, concurrent, tests } of groups) {
    // Concurrent with its sibling groups; its own checks overlap only in a group.concurrent.
    describe.concurrent(title, () => {
      for (const deferred of tests) (concurrent ? test : test.sequential)(deferred.title, deferred.fn);
    });
  }
  // Its body runs after every group's (vitest collects in order), when the undeclared checks are known.
  describe.concurrent('checks of suites that failed to load or declare', () => {
    for (const { suite, declared, why } of broken.values()) for (const id of suite.ids) if (!declared.has(id)) declareFailing(id, why);
  });
  // Not concurrent: vitest starts it only when the concurrent groups before it have all finished.
  describe('checks that move the target clock, one at a time', () => {
    // A check that timed out may still be sending: the clock does not move under it (bounded wait).
    beforeAll(async () => {
      const deadline = Date.now() + STRAY_CHECKS_WAIT_MS;
      while (checksInFlight() > 0 && Date.now() < deadline) await sleep(POLL_MS);
    }, STRAY_CHECKS_WAIT_MS + 5_000);
    for (const deferred of clock) test.sequential(deferred.title, deferred.fn);
  });
}

/**
 * Declares one check's test: concurrent in a group.concurrent, one at a time otherwise, after every group
 * when it moves the clock, and before every group when it mostly waits (`waitsMs`) in a concurrent group
 * (a group whose checks run one at a time keeps its order).
 */
export function declareCheck(id: string, title: string, movesClock: boolean, fn: TestFunction, waitsMs?: number): void {
  if (!declaring) throw new Error(`check "${title}" was declared outside a group()`);
  declaring.declared.add(id);
  if (movesClock) declaring.clock.push({ title, fn: slotted(SLOT_PRIORITY.sequence, fn) });
  else if (declaring.concurrent && waitsMs !== undefined) declaring.waiting.push({ title, fn: slotted(SLOT_PRIORITY.waits, fn), waitsMs });
  else declaring.tests.push({ title, fn: slotted(declaring.concurrent ? SLOT_PRIORITY.other : SLOT_PRIORITY.sequence, fn) });
}

/** The test runs its check once the run gives it one of its `--concurrency` slots (check-slots.ts). */
function slotted(priority: SlotPriority, fn: TestFunction): TestFunction {
  return async (context) => {
    const run = inject('acRun');
    await inSlot(
      runSlots(run),
      priority,
      async () => {
        await fn(context);
      },
      context.signal,
    );
  };
}
