import { describe, expect, it } from 'vitest';
import { applyBaseline, parseBaseline } from '../../src/engine/baseline.js';
import { computeTotals } from '../../src/engine/counts.js';
import { computeVerdict, shouldWarnings } from '../../src/engine/verdict.js';
import { toCheckResult } from '../../src/engine/outcome.js';
import { requirement } from '../../src/requirements/catalogue.js';
import { result } from './support/fixtures.js';

describe('verdict', () => {
  it('0 when no MUST failed and something was checked; SHOULD failures are warnings; INFO never fails', () => {
    const results = [result('A', 'passed'), result('B', 'failed', 'SHOULD'), result('C', 'failed', 'INFO'), result('D', 'skipped')];
    expect(computeVerdict(results, false, 0)).toMatchObject({ status: 'conformant', exitCode: 0 });
    expect(shouldWarnings(results, false)).toEqual(['B (SHOULD) B got 200']);
  });

  it('--strict makes a SHOULD failure fail the run', () => {
    const results = [result('A', 'passed'), result('B', 'failed', 'SHOULD')];
    expect(computeVerdict(results, true, 0)).toMatchObject({ status: 'not-conformant', exitCode: 1 });
    expect(computeVerdict(results, true, 0).reason).toContain('SHOULD');
    expect(shouldWarnings(results, true)).toEqual([]);
  });

  it('1 when a MUST failed, even when another check errored', () => {
    expect(computeVerdict([result('A', 'failed'), result('B', 'errored')], false, 0)).toMatchObject({ exitCode: 1, reason: '1 MUST requirement failed' });
  });

  it('2 when a check errored (or the harness failed outside checks) and no MUST failed', () => {
    expect(computeVerdict([result('A', 'passed'), result('B', 'errored')], false, 0)).toMatchObject({ status: 'error', exitCode: 2 });
    expect(computeVerdict([result('A', 'passed')], false, 1)).toMatchObject({ status: 'error', exitCode: 2 });
  });

  it('2 when nothing was checked, naming the skip reasons', () => {
    const verdict = computeVerdict([result('A', 'skipped'), result('B', 'skipped', 'MUST', { reason: 'target offers no clock hook' })], false, 0);
    expect(verdict).toMatchObject({ status: 'error', exitCode: 2 });
    expect(verdict.reason).toContain('nothing was checked');
    expect(verdict.reason).toContain('target offers no clock hook');
  });

  it('totals count by state and by level', () => {
    const totals = computeTotals([result('A', 'passed'), result('B', 'failed', 'SHOULD'), result('C', 'skipped', 'INFO'), result('D', 'errored')], false);
    // One bucket each: the SHOULD failure is a warning without --strict and a failure with it.
    expect(totals).toMatchObject({ selected: 4, passed: 1, failed: 0, warnings: 1, skipped: 1, errored: 1 });
    expect(computeTotals([result('B', 'failed', 'SHOULD'), result('C', 'failed', 'INFO')], true)).toMatchObject({ failed: 1, warnings: 0, observations: 1 });
    expect(totals.byLevel.SHOULD.failed).toBe(1);
    expect(totals.byLevel.INFO.skipped).toBe(1);
    expect(totals.byLevel.MUST).toEqual({ passed: 1, failed: 0, skipped: 0, errored: 1, blocked: 0 });
  });
});

describe('baseline', () => {
  it('expected failures do not fail the run; baseline entries that pass are reported', () => {
    const results = [result('A', 'failed'), result('B', 'passed'), result('C', 'failed')];
    const outcome = applyBaseline(results, { source: 'b.json', ids: ['A', 'B', 'GONE'] });
    expect(outcome).toEqual({ source: 'b.json', stillFailing: ['A'], noLongerFailing: ['B'], covered: [], unknown: ['GONE'], expected: 1 });
    expect(computeVerdict(results, false, 0)).toMatchObject({ exitCode: 1 });
    expect(computeTotals(results, false).expectedFailures).toBe(1);
    applyBaseline(results, { source: 'b.json', ids: ['C'] });
    expect(computeVerdict(results, false, 0)).toMatchObject({ exitCode: 0 });
  });

  it('a listed root cause covers the checks it blocks and those that build on it; a new failure still fails', () => {
    // TOK-01 is the positive control of TOK-25 (a refusal) and of CRED-X01.
    const blockedBy = { control: 'TOK-01', state: 'failed' as const, message: 'refused' };
    const run = () => [result('TOK-01', 'failed'), result('TOK-25', 'blocked', 'MUST', { blockedBy }), result('CRED-X01', 'blocked', 'MUST', { blockedBy }), result('TOK-02', 'passed')];
    const unlisted = run();
    expect(computeVerdict(unlisted, false, 0)).toMatchObject({ exitCode: 1 });

    const known = run();
    const outcome = applyBaseline(known, { source: 'b.json', ids: ['TOK-01'] });
    expect(outcome).toMatchObject({ stillFailing: ['TOK-01'], covered: ['TOK-25', 'CRED-X01'], expected: 3 });
    expect(computeVerdict(known, false, 0)).toMatchObject({ status: 'conformant', exitCode: 0 });
    expect(computeVerdict(known, false, 0).reason).toContain('3 expected');
    expect(computeTotals(known, false)).toMatchObject({ failed: 0, blocked: 0, expectedFailures: 3 });

    // A listed dependant alone does not cover its root: the root is a failure of its own.
    const rootNotListed = run();
    applyBaseline(rootNotListed, { source: 'b.json', ids: ['TOK-25'] });
    expect(computeVerdict(rootNotListed, false, 0)).toMatchObject({ exitCode: 1 });

    // A new failure beside the known one fails the run; a blocked check whose control is not listed stays blocked.
    const withNew = [...run(), result('CRED-01', 'failed')];
    applyBaseline(withNew, { source: 'b.json', ids: ['TOK-01'] });
    expect(computeVerdict(withNew, false, 0)).toMatchObject({ exitCode: 1, reason: '1 MUST requirement failed' });

    // An errored check is never covered.
    const errored = [...run(), result('TOK-26', 'errored')];
    applyBaseline(errored, { source: 'b.json', ids: ['TOK-01'] });
    expect(computeVerdict(errored, false, 0)).toMatchObject({ exitCode: 2 });
  });

  it('reads a list, an object with expectedFailures, or a json report', () => {
    expect(parseBaseline('["A","B","A"]', 'x').ids).toEqual(['A', 'B']);
    expect(parseBaseline('{"expectedFailures":["A"],"why":"ticket 12"}', 'x').ids).toEqual(['A']);
    expect(parseBaseline('{"results":[{"id":"A","state":"failed"},{"id":"B","state":"passed"},{"id":"C","state":"blocked"},{"id":"D","state":"errored"}]}', 'x').ids).toEqual(['A', 'C']);
    expect(() => parseBaseline('{"foo":1}', 'x')).toThrow(/none of the accepted shapes/);
    expect(() => parseBaseline('nope', 'x')).toThrow(/not JSON/);
  });
});

describe('test outcome mapping', () => {
  const req = requirement('PAGE-01');

  it('uses the check meta: failure, harness error, skip reason', () => {
    const meta = { requirementId: 'PAGE-01', level: 'MUST' as const, group: 'pagination', observations: ['o'], exchanges: [] };
    expect(toCheckResult(req, 'main', { id: 'PAGE-01', state: 'failed', meta: { ...meta, failure: { message: 'm', expected: 'e', actual: 'a' } }, errors: [], durationMs: 3 })).toMatchObject({
      state: 'failed',
      failure: { message: 'm' },
      observations: ['o'],
    });
    expect(toCheckResult(req, 'main', { id: 'PAGE-01', state: 'failed', meta: { ...meta, harnessError: { code: 'TIMEOUT', message: 't' } }, errors: [], durationMs: 3 }).state).toBe('errored');
    expect(toCheckResult(req, 'main', { id: 'PAGE-01', state: 'skipped', meta: { ...meta, skipReason: 'profile has no apps.owners' }, errors: [], durationMs: 0 })).toMatchObject({
      state: 'skipped',
      reason: 'profile has no apps.owners',
    });
  });

  it('falls back on vitest errors: a test timeout is a harness error, anything else a failure', () => {
    const timedOut = toCheckResult(req, 'main', { id: 'PAGE-01', state: 'failed', errors: [{ name: 'Error', message: 'Test timed out in 120000ms.' }], durationMs: 1 });
    expect(timedOut).toMatchObject({ state: 'errored', harnessError: { code: 'TIMEOUT' } });
    const harness = toCheckResult(req, 'main', { id: 'PAGE-01', state: 'failed', errors: [{ name: 'HarnessError', message: 'x', code: 'HOOK_BROKEN' }], durationMs: 1 });
    expect(harness).toMatchObject({ state: 'errored', harnessError: { code: 'HOOK_BROKEN' } });
    const plain = toCheckResult(req, 'main', { id: 'PAGE-01', state: 'failed', errors: [{ name: 'AssertionError', message: 'expected 1 to be 2' }], durationMs: 1 });
    expect(plain).toMatchObject({ state: 'failed', failure: { message: 'expected 1 to be 2' } });
    const skipped = toCheckResult(req, 'main', { id: 'PAGE-01', state: 'skipped', errors: [], durationMs: 0 });
    expect(skipped.reason).toBeTruthy();
  });
});
