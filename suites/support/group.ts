/**
 * `group(title, body)` and `group.concurrent(title, body)`: a suite file's block of checks, h2spec style (one
 * group per spec section). A suite file records its groups when it is first imported; each run plans them
 * again (planSuites) for the runner that runs it: the project's scheduler (scheduler.ts, what the engine
 * uses) or vitest (run-entry.ts with vitest-declare.ts). Why not vitest's `describe` at the top of the file:
 *
 * - vitest runs the files of one worker one after another, so the checks that only wait (a run that must
 *   not appear, a key rotation) would wait group after group. Planned together, every group runs at once,
 *   within the run's `--concurrency`.
 * - a process runs run after run (another target: the fault self-verification runs hundreds), and Node
 *   imports a module once: what the file recorded is planned again, nothing is imported again.
 *
 * Checks of a `group` run one at a time (each may send many requests at once); checks of a
 * `group.concurrent` overlap. A check that moves the target's clock is declared last of all, alone, after
 * every group has finished (check.ts declares through `declareCheck`). Which check runs when, within the
 * run's `--concurrency`, is check-slots.ts's to say: the runner starts every check of the plan at once.
 */
import { errorLine, HarnessError, SUITE_BUG_HINT } from '../../src/errors.js';
import { requirement, type RequirementId } from '../../src/requirements/catalogue.js';
import { CHECKS_IN_FLIGHT, type SuiteToLoad } from '../../src/engine/check-meta.js';
import { POLL_MS, sleep } from './webhook-expect.js';
import { inSlot, runSlots, SLOT_PRIORITY, type SlotPriority } from './check-slots.js';
import { currentRun, type CheckFn } from './run-context.js';

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

/** The selected suites, each imported (once per process) or with why it could not be. */
export async function loadSuites(suites: readonly SuiteToLoad[]): Promise<SuiteToDeclare[]> {
  const loaded: SuiteToDeclare[] = [];
  for (const { group, ids, url } of suites) {
    try {
      loaded.push({ group, ids, declarations: await loadSuite(group, url) });
    } catch (error) {
      loaded.push({ group, ids, declarations: [], loadError: `suite ${group} failed to load: ${errorLine(error)}` });
    }
  }
  return loaded;
}

export interface DeferredCheck {
  /** The result key: the requirement ID, or `ID@METHOD path` for one operation's check. */
  key: string;
  title: string;
  /** The check's body, run once it has its slot. */
  fn: CheckFn;
  /** About how long the check waits by design (CheckOptions.waitsMs). */
  waitsMs?: number;
}

/** How check() declares a test in the group being declared. */
interface Declaring {
  concurrent: boolean;
  clock: DeferredCheck[];
  /** The run's checks that mostly wait, taken out of their concurrent groups. */
  waiting: DeferredCheck[];
  /** The group's own checks. */
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
 * Check bodies still running. A check fails at its time limit but nothing can stop its body: the clock-moving
 * checks wait for it, and under vitest the engine's thread reads this count (src/engine/suite-pool.ts) and is
 * not kept for another target while one still runs.
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

/** A selected check that cannot run: it errors with the reason (a harness error, exit 2). */
function failingCheck(key: string, why: string): DeferredCheck {
  return {
    key,
    title: `${key} ${requirement(key as RequirementId).text}`,
    fn: async () => {
      throw new HarnessError('INTERNAL', why, { hint: SUITE_BUG_HINT });
    },
  };
}

/**
 * A run's checks in the order they are started, whichever runner runs them (scheduler.ts, or vitest through
 * vitest-declare.ts): first the checks that mostly wait, longest first, each started at once; then every
 * group, side by side (the checks of a `group.concurrent` started at once, those of a `group` one after the
 * other); then the checks of suites that failed to load or declare; and once all of them have ended, the
 * clock-moving checks, one at a time. Which of the started checks runs when, within `--concurrency`, is
 * check-slots.ts's to say.
 */
export interface RunPlan {
  waiting: DeferredCheck[];
  groups: Array<{ title: string; concurrent: boolean; checks: DeferredCheck[] }>;
  failing: DeferredCheck[];
  clock: DeferredCheck[];
}

/**
 * The given suites' groups as a run plan. A suite that failed to load, or a group body that throws, errors
 * that suite's undeclared checks with the (first) reason; the other groups run.
 *
 * The group bodies run here: a check that mostly waits (CheckOptions.waitsMs: a watch for a run that must
 * not appear, a key rotation to be picked up) is taken out of its concurrent group and started first,
 * longest first, so that its waiting overlaps the other checks' work. Started in its group's turn, the
 * waiting checks held most of the run's `--concurrency` at once while nothing else ran, and the last of them
 * ended the run alone: a third of the embedded run's checks phase (BENCHMARKS.md).
 */
export function planSuites(suites: readonly SuiteToDeclare[]): RunPlan {
  const clock: DeferredCheck[] = [];
  const waiting: DeferredCheck[] = [];
  const groups: RunPlan['groups'] = [];
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
      groups.push({ title: declaration.title, concurrent: declaration.concurrent, checks: tests });
    }
  }
  const failing = [...broken.values()].flatMap(({ suite, declared, why }) => suite.ids.filter((id) => !declared.has(id)).map((id) => failingCheck(id, why)));
  return { waiting: [...waiting].sort((a, b) => (b.waitsMs ?? 0) - (a.waitsMs ?? 0)), groups, failing, clock };
}

/**
 * Before the clock-moving checks: a check that timed out may still be sending, and the clock does not move
 * under it (bounded wait). A stopped run moves no clock: its bodies still sending against a slow target
 * (every stopped check's, since a stop ends the checks, not their bodies) must not hold the run's end for
 * this wait's whole bound.
 */
export async function waitForStrayChecks(): Promise<void> {
  const slots = runSlots(currentRun());
  const deadline = Date.now() + STRAY_CHECKS_WAIT_MS;
  // stop: within()
  while (checksInFlight() > 0 && Date.now() < deadline && !slots.stopped) await sleep(POLL_MS);
}

/** The bound of waitForStrayChecks, for a runner that bounds its hooks itself (vitest). */
export const STRAY_CHECKS_BOUND_MS = STRAY_CHECKS_WAIT_MS + 5_000;

/**
 * Declares one check's test: concurrent in a group.concurrent, one at a time otherwise, after every group
 * when it moves the clock, and before every group when it mostly waits (`waitsMs`) in a concurrent group
 * (a group whose checks run one at a time keeps its order).
 */
export function declareCheck(id: string, title: string, movesClock: boolean, fn: CheckFn, waitsMs?: number): void {
  if (!declaring) throw new Error(`check "${title}" was declared outside a group()`);
  declaring.declared.add(id);
  if (movesClock) declaring.clock.push({ key: id, title, fn: slotted(SLOT_PRIORITY.sequence, fn) });
  else if (declaring.concurrent && waitsMs !== undefined) declaring.waiting.push({ key: id, title, fn: slotted(SLOT_PRIORITY.waits, fn), waitsMs });
  else declaring.tests.push({ key: id, title, fn: slotted(declaring.concurrent ? SLOT_PRIORITY.other : SLOT_PRIORITY.sequence, fn) });
}

/** The check runs once the run gives it one of its `--concurrency` slots (check-slots.ts). */
function slotted(priority: SlotPriority, fn: CheckFn): CheckFn {
  return async (context) => {
    await inSlot(runSlots(currentRun()), priority, () => fn(context), context.signal);
  };
}
