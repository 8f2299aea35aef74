/**
 * --baseline FILE: the failures a team already knows about. Accepted shapes:
 *   ["WH-HMAC-07", "PAG-12"]                       a list of IDs
 *   {"expectedFailures": ["WH-HMAC-07"]}           the same, with room for comments in other keys
 *   a previous `--reporter json` report            its failed and blocked checks become the baseline
 *
 * A baseline entry that is a root cause in the run (root-causes.ts) covers its dependants too: the checks it
 * blocks (their positive control is the known failure) and those that fail because they build on it. A team
 * that accepts one known defect lists it once, and the run still goes green: a known failure plus what
 * follows from it exits 0, a new failure (a root the baseline does not list) still exits 1, and a listed
 * check that passes now is reported as fixed.
 */
import { readFile } from 'node:fs/promises';
import { HarnessError } from '../errors.js';
import { findRootCauses } from './root-causes.js';
import type { BaselineOutcome, CheckResult, CheckState, RootCause } from './types.js';

export interface Baseline {
  source: string;
  ids: string[];
}

function invalid(path: string, why: string): HarnessError {
  return new HarnessError('BASELINE_INVALID', `baseline ${path} ${why}`, {
    field: '--baseline',
    hint: 'give a JSON list of requirement IDs, {"expectedFailures": [...]}, or a json report from a previous run',
  });
}

function stringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

export function parseBaseline(text: string, path: string): Baseline {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw invalid(path, `is not JSON: ${(error as Error).message}`);
  }
  if (stringList(data)) return { source: path, ids: [...new Set(data)] };
  if (typeof data === 'object' && data !== null) {
    const record = data as Record<string, unknown>;
    if (stringList(record.expectedFailures)) return { source: path, ids: [...new Set(record.expectedFailures)] };
    if (Array.isArray(record.results)) {
      const ids = record.results
        .filter((r): r is { id: string; state: string } => typeof r === 'object' && r !== null && typeof (r as { id?: unknown }).id === 'string')
        .filter((r) => BASELINED_STATES.includes(r.state as CheckState))
        .map((r) => r.id);
      return { source: path, ids: [...new Set(ids)] };
    }
  }
  throw invalid(path, 'has none of the accepted shapes');
}

/** The states a baseline tolerates: a failure, and a refusal check its known failure left unproven. */
const BASELINED_STATES: readonly CheckState[] = ['failed', 'blocked'];

/**
 * Marks the results the baseline expects (`expectedFailure`) and says what it found: the listed checks that
 * failed again, those that pass now (fixed), the dependants of a listed root cause that were covered, and
 * the listed IDs this run did not have. An errored check is never covered: the harness could not decide it.
 */
export function applyBaseline(
  results: CheckResult[],
  baseline: { source: string; ids: string[] },
  rootCauses: readonly RootCause[] = findRootCauses(results),
): BaselineOutcome {
  const wanted = new Set(baseline.ids);
  const byId = new Map(results.map((r) => [r.id, r]));
  const outcome: BaselineOutcome = { source: baseline.source, stillFailing: [], noLongerFailing: [], covered: [], unknown: [], expected: 0 };
  for (const result of results) {
    if (!wanted.has(result.id)) continue;
    if (BASELINED_STATES.includes(result.state)) {
      result.expectedFailure = true;
      outcome.stillFailing.push(result.id);
    } else if (result.state === 'passed') {
      outcome.noLongerFailing.push(result.id);
    }
  }
  for (const cause of rootCauses) {
    if (!byId.get(cause.id)?.expectedFailure) continue;
    for (const id of cause.dependants) {
      const dependant = byId.get(id);
      if (!dependant || dependant.expectedFailure || !BASELINED_STATES.includes(dependant.state)) continue;
      dependant.expectedFailure = true;
      outcome.covered.push(id);
    }
  }
  outcome.expected = results.filter((r) => r.expectedFailure).length;
  // IDs outside this run's selection (or the catalogue): ignored, and said.
  outcome.unknown = baseline.ids.filter((id) => !byId.has(id));
  return outcome;
}

export async function loadBaseline(path: string): Promise<Baseline> {
  return parseBaseline(await readNamedFile(path, (why) => invalid(path, why)), path);
}

/** Reads a file the user named (a baseline, a report); a missing or unreadable one is `invalid(why)`. */
export async function readNamedFile(path: string, invalid: (why: string) => Error): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw invalid(code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? 'error'})`);
  }
}
