/**
 * The one set of counts every reporter renders (console, json, junit, markdown, html, github). Each selected
 * check lands in exactly one bucket, so the buckets add up to `selected`, and "failed" means the same thing
 * everywhere: a failure that counts against the verdict. A SHOULD failure without --strict is a warning, an
 * INFO failure an observation, and a failure or block the baseline expects is expected: each has its own
 * count instead of hiding inside "failed". `byLevel` keeps the raw state of each check per level.
 */
import type { Level } from '../requirements/types.js';
import type { CheckResult, LevelTotals, RunTotals } from './types.js';

/** What a failure means for the verdict: it fails the run, warns, is recorded, or the baseline expects it. */
export function failureKind(result: CheckResult, strict: boolean): 'failure' | 'warning' | 'observation' | 'expected' {
  if (result.expectedFailure) return 'expected';
  if (result.level === 'MUST') return 'failure';
  if (result.level === 'SHOULD') return strict ? 'failure' : 'warning';
  return 'observation';
}

/** How a check is counted and shown: its state, with failed split by what the failure means for the verdict. */
export type DisplayState = 'failed' | 'errored' | 'blocked' | 'warning' | 'observation' | 'expected' | 'passed' | 'skipped';

/** Reading order of reports: what fails the run first, then what may, then the rest. */
export const DISPLAY_ORDER: readonly DisplayState[] = ['failed', 'errored', 'blocked', 'warning', 'observation', 'expected', 'passed', 'skipped'];

export function displayState(result: CheckResult, strict: boolean): DisplayState {
  // A block the baseline expects (its control is the known failure) is expected like the failure itself.
  if (result.state === 'blocked' && result.expectedFailure) return 'expected';
  if (result.state !== 'failed') return result.state;
  const kind = failureKind(result, strict);
  return kind === 'failure' ? 'failed' : kind;
}

const LEVELS: Level[] = ['MUST', 'SHOULD', 'INFO'];

function emptyLevel(): LevelTotals {
  return { passed: 0, failed: 0, skipped: 0, errored: 0, blocked: 0 };
}

/** The bucket of the totals each display state is counted in. */
export const DISPLAY_TOTAL: Record<DisplayState, 'passed' | 'failed' | 'blocked' | 'errored' | 'skipped' | 'warnings' | 'observations' | 'expectedFailures'> = {
  passed: 'passed',
  failed: 'failed',
  blocked: 'blocked',
  errored: 'errored',
  skipped: 'skipped',
  warning: 'warnings',
  observation: 'observations',
  expected: 'expectedFailures',
};

export function computeTotals(results: readonly CheckResult[], strict: boolean): RunTotals {
  const byLevel = Object.fromEntries(LEVELS.map((level) => [level, emptyLevel()])) as Record<Level, LevelTotals>;
  const totals: RunTotals = { selected: results.length, passed: 0, failed: 0, blocked: 0, errored: 0, skipped: 0, warnings: 0, observations: 0, expectedFailures: 0, pulledIn: 0, byLevel };
  for (const result of results) {
    totals[DISPLAY_TOTAL[displayState(result, strict)]] += 1;
    byLevel[result.level][result.state] += 1;
    if (result.pulledIn) totals.pulledIn! += 1;
  }
  return totals;
}

/**
 * The counts as one line, the same words in every reporter: `N passed, N failed, N blocked, N errored, N
 * skipped`, then the warnings, observations and expected failures when there are any, and last, when the
 * selection pulled checks in, how many of the counted checks those are (`of 2 checks: 1 selected, 1 pulled
 * in as a positive control`): the buckets add up to the header's selection count either way.
 */
export function countsLine(totals: RunTotals): string {
  const parts = [`${totals.passed} passed`, `${totals.failed} failed`, `${totals.blocked} blocked`, `${totals.errored} errored`, `${totals.skipped} skipped`];
  // Reports written before these counts existed lack them.
  if ((totals.warnings ?? 0) > 0) parts.push(`${totals.warnings} warning${totals.warnings === 1 ? '' : 's'} (SHOULD)`);
  if ((totals.observations ?? 0) > 0) parts.push(`${totals.observations} observation${totals.observations === 1 ? '' : 's'} (INFO)`);
  if (totals.expectedFailures > 0) parts.push(`${totals.expectedFailures} expected (baseline)`);
  const pulled = totals.pulledIn ?? 0;
  const line = parts.join(', ');
  if (pulled === 0) return line;
  return `${line} (of ${totals.selected} checks: ${totals.selected - pulled} selected, ${pulled} pulled in as ${pulled === 1 ? 'a positive control' : 'positive controls'})`;
}
