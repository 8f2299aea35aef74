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
 * every group has finished (check.ts hands it to `deferClockCheck`).
 */
import { describe, test, type TestFunction } from 'vitest';

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
  options: { timeout?: number };
  fn: TestFunction;
}

/** How check() declares a test in the group being declared. */
interface Declaring {
  concurrent: boolean;
  clock: DeferredCheck[];
}

let declaring: Declaring | undefined;

/**
 * Declares the given suites' groups in the current vitest file: every group concurrent with the others,
 * then the clock-moving checks they deferred, one at a time, once every group has finished.
 */
export function declareSuites(suites: ReadonlyArray<readonly GroupDeclaration[]>): void {
  const clock: DeferredCheck[] = [];
  for (const declarations of suites) {
    for (const declaration of declarations) {
      // Concurrent with its sibling groups; its own checks overlap only in a group.concurrent (check()
      // declares them test.sequential otherwise). vitest runs describe bodies after this file is imported.
      describe.concurrent(declaration.title, () => {
        declaring = { concurrent: declaration.concurrent, clock };
        try {
          declaration.body();
        } finally {
          declaring = undefined;
        }
      });
    }
  }
  // Not concurrent: vitest starts it only when the concurrent groups before it have all finished.
  describe('checks that move the target clock, one at a time', () => {
    for (const deferred of clock) test.sequential(deferred.title, deferred.options, deferred.fn);
  });
}

/**
 * Declares one check's test: concurrent in a group.concurrent, one at a time otherwise, and after every
 * group when it moves the clock.
 */
export function declareCheck(title: string, options: { timeout?: number }, movesClock: boolean, fn: TestFunction): void {
  if (!declaring) throw new Error(`check "${title}" was declared outside a group()`);
  if (movesClock) declaring.clock.push({ title, options, fn });
  else if (declaring.concurrent) test(title, options, fn);
  else test.sequential(title, options, fn);
}
