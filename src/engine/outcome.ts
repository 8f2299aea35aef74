/**
 * Maps what vitest said about one test onto a catalogue result. The check wrapper (suites/support/check.ts)
 * classifies errors inside the worker and puts them in the task meta; this module only falls back on
 * vitest's own errors when the wrapper could not (a test timeout, a failing hook, a suite without check()).
 */
import { HARNESS_ERROR_CODES, SUITE_BUG_HINT, type HarnessErrorCode } from '../errors.js';
import type { Requirement } from '../requirements/catalogue.js';
import type { ExpectedCheck } from './operation-keys.js';
import type { CheckResult, Phase, RunAbort } from './types.js';
import type { RawCheckOutcome } from './vitest-bridge.js';

const KNOWN_CODES = new Set<string>(HARNESS_ERROR_CODES);

function isHarnessCode(value: unknown): value is HarnessErrorCode {
  return typeof value === 'string' && KNOWN_CODES.has(value);
}

/** A requirement, or one operation of a per-operation requirement (operation-keys.ts). */
type Expected = Requirement | ExpectedCheck;

function split(expected: Expected): { req: Requirement; operation?: ExpectedCheck['operation'] } {
  return 'req' in expected ? expected : { req: expected };
}

/** The catalogue part every result carries (and the operation, for one operation's result). */
export function baseResult(expected: Expected, phase: Phase): Omit<CheckResult, 'state'> {
  const { req, operation } = split(expected);
  return {
    id: req.id,
    ...(operation ? { operation } : {}),
    level: req.level,
    group: req.group,
    section: req.section,
    ...(req.ruling === undefined ? {} : { ruling: req.ruling }),
    authority: req.authority,
    text: req.text,
    observations: [],
    exchanges: [],
    durationMs: 0,
    phase,
  };
}

export function toCheckResult(expected: Expected, phase: Phase, outcome: RawCheckOutcome): CheckResult {
  const { req } = split(expected);
  const meta = outcome.meta;
  const base = {
    ...baseResult(expected, phase),
    observations: meta?.observations ?? [],
    exchanges: meta?.exchanges ?? [],
    durationMs: outcome.durationMs,
  };
  if (outcome.state === 'passed') return { ...base, state: 'passed' };
  if (outcome.state === 'skipped') {
    const reason = meta?.skipReason ?? outcome.note ?? 'skipped by its suite without a reason';
    return { ...base, state: 'skipped', reason };
  }
  if (meta?.harnessError) return { ...base, state: 'errored', harnessError: meta.harnessError };
  if (meta?.blocked) return { ...base, state: 'blocked', blockedBy: { control: req.id, state: 'failed', message: meta.blocked.message, ownRequest: true } };
  if (meta?.failure) return { ...base, state: 'failed', failure: meta.failure };

  const first = outcome.errors[0] ?? { message: 'the test failed without an error' };
  if (first.name === 'HarnessError' || isHarnessCode(first.code)) {
    return {
      ...base,
      state: 'errored',
      harnessError: { code: isHarnessCode(first.code) ? first.code : 'INTERNAL', message: first.message },
    };
  }
  if (/timed out in \d+ ?ms/i.test(first.message)) {
    return {
      ...base,
      state: 'errored',
      harnessError: {
        code: 'TIMEOUT',
        message: `the check did not finish: ${first.message}`,
        hint: 'raise --timeout (the per-check limit is a multiple of it) or lower --concurrency',
      },
    };
  }
  return { ...base, state: 'failed', failure: { message: first.message, expected: '', actual: '' } };
}

/** A selected check that no test reported: its suite failed to load, or no suite implements it. */
export function unreportedResult(expected: Expected, phase: Phase, moduleErrors: string[] | undefined, hasSuite: boolean): CheckResult {
  const { req } = split(expected);
  const key = 'key' in expected ? expected.key : req.id;
  if (moduleErrors && moduleErrors.length > 0) {
    return {
      ...baseResult(expected, phase),
      state: 'errored',
      harnessError: {
        code: 'INTERNAL',
        message: `suite ${req.group} failed before this check ran: ${moduleErrors[0]}`,
        hint: SUITE_BUG_HINT,
      },
    };
  }
  return {
    ...baseResult(expected, phase),
    state: 'skipped',
    reason: hasSuite ? `not implemented: suites/${req.group}.suite.ts has no test for ${key}` : `not implemented: no suite file for group ${req.group}`,
  };
}

/** A selected check the run stopped before it finished (deadline, giving up, interruption). */
export function abortedResult(expected: Expected, phase: Phase, reason: RunAbort): CheckResult {
  return {
    ...baseResult(expected, phase),
    state: 'errored',
    harnessError: { code: reason.code, message: `not finished: ${reason.message}` },
  };
}
