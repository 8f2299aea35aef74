/**
 * Positive controls in the engine (ruling 30), root causes and the one-answer rule, without a target: the
 * gate that holds a refusal until its control reported, what a refusal becomes for each control result,
 * the selection that brings controls in, the verdict of blocked checks, the grouping of failures under the
 * check they follow from, and the uniform-answer threshold.
 */
import { describe, expect, it } from 'vitest';
import { ControlGate, applyControls, keepPulledInOperations, selectionWithControls, withControls } from '../../src/engine/controls.js';
import { findRootCauses, dependencyEdges } from '../../src/engine/root-causes.js';
import { operationSelector, resolveSelection } from '../../src/engine/selection.js';
import { computeTotals, countsLine } from '../../src/engine/counts.js';
import { computeVerdict } from '../../src/engine/verdict.js';
import { UNIFORM_WINDOW, UniformAnswerWatch, uniformAnswerOf } from '../../src/engine/uniform-answer.js';
import { result } from './support/fixtures.js';

describe('a refusal check and its positive control', () => {
  it('stays passed when its control passed', () => {
    expect(applyControls(result('TOK-09', 'passed'), [{ id: 'TOK-02', result: result('TOK-02', 'passed') }]).state).toBe('passed');
  });

  it('is blocked, naming the control and its result, when the control failed, errored or was blocked', () => {
    for (const state of ['failed', 'errored', 'blocked'] as const) {
      const control = result('TOK-02', state, 'MUST', state === 'blocked' ? { blockedBy: { control: 'TOK-02', state: 'failed', message: 'own request got 404', ownRequest: true } } : {});
      const settled = applyControls(result('TOK-09', 'passed'), [{ id: 'TOK-02', result: control }]);
      expect(settled.state).toBe('blocked');
      expect(settled.blockedBy).toMatchObject({ control: 'TOK-02', state });
      expect(settled.blockedBy!.message.length).toBeGreaterThan(0);
    }
  });

  it('is skipped, saying why, when its control was skipped or not run', () => {
    const skipped = applyControls(result('WH-26', 'passed'), [{ id: 'WH-01', result: result('WH-01', 'skipped') }]);
    expect(skipped.state).toBe('skipped');
    expect(skipped.reason).toMatch(/WH-01 was skipped: profile has no webhooks\.jwt/);
    expect(applyControls(result('WH-26', 'passed'), [{ id: 'WH-01', result: undefined }]).reason).toMatch(/WH-01 was not run/);
  });

  it('keeps a failure or an error whatever the control did: accepting a spoiled request is a failure of its own', () => {
    expect(applyControls(result('TOK-09', 'failed'), [{ id: 'TOK-02', result: result('TOK-02', 'failed') }]).state).toBe('failed');
    expect(applyControls(result('TOK-09', 'errored'), [{ id: 'TOK-02', result: result('TOK-02', 'failed') }]).state).toBe('errored');
  });

  it('a list of controls (the JWT listener) holds over those that ran: one that did not pass blocks', () => {
    const controls = [
      { id: 'WH-JWT-01', result: result('WH-JWT-01', 'skipped') },
      { id: 'WH-JWT-02', result: result('WH-JWT-02', 'passed') },
      { id: 'WH-JWT-03', result: result('WH-JWT-03', 'passed') },
    ];
    expect(applyControls(result('WH-JWT-06', 'passed'), controls).state).toBe('passed');
    controls[2] = { id: 'WH-JWT-03', result: result('WH-JWT-03', 'failed') };
    expect(applyControls(result('WH-JWT-06', 'passed'), controls).blockedBy?.control).toBe('WH-JWT-03');
  });
});

describe('the gate', () => {
  it('holds a passed refusal that finished before its control, and releases it when the control reports', () => {
    const gate = new ControlGate(new Set(['TOK-02', 'TOK-09', 'TOK-10']));
    expect(gate.arrive(result('TOK-09', 'passed'))).toEqual([]);
    expect(gate.isHeld('TOK-09')).toBe(true);
    // A failed refusal never waits.
    expect(gate.arrive(result('TOK-10', 'failed')).map((r) => r.id)).toEqual(['TOK-10']);
    const released = gate.arrive(result('TOK-02', 'failed'));
    expect(released.map((r) => `${r.id} ${r.state}`)).toEqual(['TOK-02 failed', 'TOK-09 blocked']);
    expect(gate.isHeld('TOK-09')).toBe(false);
  });

  it('settles what is still held when the run ends (a control that never reported did not run)', () => {
    const gate = new ControlGate(new Set(['TOK-02', 'TOK-09']));
    gate.arrive(result('TOK-09', 'passed'));
    expect(gate.drain().map((r) => `${r.id} ${r.state}`)).toEqual(['TOK-09 skipped']);
  });

  it('releases each held per-operation refusal when its own control arrives, and only then (OPS-01 on OPS-18)', () => {
    const ops = Array.from({ length: 50 }, (_, i) => ({ method: 'GET', path: `/api/v1/gen/${i}` }));
    const keys = ops.flatMap((op) => [`OPS-01@GET ${op.path}`, `OPS-18@GET ${op.path}`]);
    const gate = new ControlGate(new Set(keys));
    for (const operation of ops) expect(gate.arrive(result('OPS-01', 'passed', 'MUST', { operation }))).toEqual([]);
    // In reverse order: each control releases its own refusal, right after itself.
    for (const operation of [...ops].reverse()) {
      expect(gate.arrive(result('OPS-18', 'passed', 'MUST', { operation })).map((r) => `${r.id} ${r.state} ${r.operation?.path}`)).toEqual([
        `OPS-18 passed ${operation.path}`,
        `OPS-01 passed ${operation.path}`,
      ]);
    }
    expect(gate.drain()).toEqual([]);
    // One control failing blocks only its own operation's refusal.
    const second = new ControlGate(new Set(keys));
    second.arrive(result('OPS-01', 'passed', 'MUST', { operation: ops[0] }));
    second.arrive(result('OPS-01', 'passed', 'MUST', { operation: ops[1] }));
    expect(second.arrive(result('OPS-18', 'failed', 'MUST', { operation: ops[1] })).map((r) => `${r.id} ${r.state}`)).toEqual(['OPS-18 failed', 'OPS-01 blocked']);
    expect(second.drain().map((r) => `${r.id} ${r.state} ${r.operation?.path}`)).toEqual(['OPS-01 skipped /api/v1/gen/0']);
  });

  it('does not wait for a control outside the run', () => {
    const gate = new ControlGate(new Set(['TOK-09']));
    expect(gate.arrive(result('TOK-09', 'passed')).map((r) => r.state)).toEqual(['skipped']);
  });
});

describe('the selection brings the controls in', () => {
  it('--only TOK-09 runs TOK-02 too; --skip TOK-02 keeps it out', () => {
    const only = resolveSelection({ only: ['TOK-09'], skip: [] }).requirements;
    expect(withControls(only, new Set()).requirements.map((r) => r.id)).toEqual(['TOK-02', 'TOK-09']);
    expect(selectionWithControls(only, { only: ['TOK-09'], skip: [] }).pulledIn).toEqual([{ id: 'TOK-02', controlOf: ['TOK-09'] }]);
    // One control of several selected refusal checks is pulled in once, naming each.
    const three = resolveSelection({ only: ['TOK-09', 'TOK-10', 'TOK-25'], skip: [] }).requirements;
    expect(withControls(three, new Set()).pulledIn).toEqual([
      { id: 'TOK-01', controlOf: ['TOK-25'] },
      { id: 'TOK-02', controlOf: ['TOK-09', 'TOK-10'] },
    ]);
    // A control the selection names itself is not pulled in.
    const both = resolveSelection({ only: ['TOK-02', 'TOK-09'], skip: [] }).requirements;
    expect(withControls(both, new Set()).pulledIn).toEqual([]);
    const skipping = resolveSelection({ only: ['TOK-0*'], skip: ['TOK-02'] }).requirements;
    expect(selectionWithControls(skipping, { only: ['TOK-0*'], skip: ['TOK-02'] }).requirements.map((r) => r.id)).not.toContain('TOK-02');
  });
});

describe('a pulled-in per-operation control', () => {
  it('is kept on the operations its refusal checks are kept on, not dropped by the --only pattern', () => {
    const keep = keepPulledInOperations(operationSelector({ only: ['OPS-01@GET /api/v1/apps'], skip: [] }), [{ id: 'OPS-18', controlOf: ['OPS-01'] }]);
    const apps = { method: 'GET', path: '/api/v1/apps' };
    const users = { method: 'POST', path: '/api/v1/search/users' };
    expect([keep('OPS-01', apps), keep('OPS-18', apps)]).toEqual([true, true]);
    expect([keep('OPS-01', users), keep('OPS-18', users)]).toEqual([false, false]);
    // Not pulled in: the pattern alone decides.
    expect(keepPulledInOperations(operationSelector({ only: ['OPS-01@GET /api/v1/apps'], skip: [] }), [])('OPS-18', apps)).toBe(false);
  });
});

describe('the verdict', () => {
  it('a pulled-in control that passed does not make a selection whose checks were all skipped conformant', () => {
    const control = result('TOK-02', 'passed', 'MUST', { pulledIn: { controlOf: ['TOK-09'] } });
    const verdict = computeVerdict([control, result('TOK-09', 'skipped', 'MUST', { reason: 'profile has no assertion key' })], false, 0);
    expect(verdict).toMatchObject({ status: 'error', exitCode: 2 });
    expect(verdict.reason).toMatch(/^nothing was checked: all 1 selected check was skipped \(1× profile has no assertion key\); the positive control it pulled in decided nothing$/);
  });

  it('a pulled-in control that failed fails the run, and is counted among the checks', () => {
    const results = [result('WH-HMAC-01', 'failed', 'MUST', { pulledIn: { controlOf: ['WH-HMAC-08'] } }), result('WH-HMAC-08', 'failed')];
    expect(computeVerdict(results, false, 0)).toMatchObject({ status: 'not-conformant', exitCode: 1, reason: '2 MUST requirements failed' });
    const totals = computeTotals(results, false);
    expect(totals).toMatchObject({ selected: 2, failed: 2, pulledIn: 1 });
    expect(countsLine(totals)).toBe('0 passed, 2 failed, 0 blocked, 0 errored, 0 skipped (of 2 checks: 1 selected, 1 pulled in as a positive control)');
  });

  it('a blocked MUST is never conformant (exit 2 without a failure), and is counted apart', () => {
    const results = [result('WH-01', 'passed'), result('IDEM-01', 'blocked', 'MUST', { blockedBy: { control: 'IDEM-01', state: 'failed', message: 'first request got 503', ownRequest: true } })];
    const verdict = computeVerdict(results, false, 0);
    expect(verdict).toMatchObject({ status: 'error', exitCode: 2 });
    expect(verdict.reason).toMatch(/blocked/);
    expect(computeTotals(results, false)).toMatchObject({ passed: 1, blocked: 1, byLevel: { MUST: { blocked: 1 } } });
  });
});

describe('root causes', () => {
  it('groups failures under the check they follow from, looking through checks outside the run', () => {
    const results = [
      result('TOK-01', 'failed'),
      result('TOK-19', 'failed'),
      result('TOK-25', 'blocked', 'MUST', { blockedBy: { control: 'TOK-01', state: 'failed', message: 'got 404' } }),
      // AUTH-10 is not in the run: OWN-01 follows from TOK-01 through it.
      result('OWN-01', 'failed'),
      result('WH-01', 'passed'),
      result('WH-02', 'failed'),
    ];
    const causes = findRootCauses(results);
    expect(causes.map((c) => c.id)).toEqual(['TOK-01', 'WH-02']);
    expect(causes[0]!.dependants).toEqual(['TOK-19', 'OWN-01', 'TOK-25']);
    expect(causes[0]!.failingDependants).toEqual(['TOK-19', 'OWN-01']);
    expect(dependencyEdges(results).get('OWN-01')).toBe('TOK-01');
    expect(dependencyEdges(results).has('WH-02')).toBe(false);
  });

  it('a refusal check that failed beside its failed control is listed first under it (the rule the target applies instead)', () => {
    const results = [
      result('WH-01', 'failed'),
      result('WH-HMAC-01', 'failed'),
      result('WH-HMAC-02', 'blocked', 'MUST', { blockedBy: { control: 'WH-HMAC-01', state: 'failed', message: 'got 401' } }),
      result('WH-HMAC-08', 'failed', 'MUST', { failure: { message: 'decoded key: got status 200', expected: 'status 401', actual: '200 (application/json)' } }),
      // Failed on the way (its expectation was no refusal): not "accepted instead".
      result('WH-HMAC-12', 'failed', 'MUST', { failure: { message: 'no signature with - or _', expected: 'a signature', actual: '200 (application/json)' } }),
    ];
    const [cause] = findRootCauses(results);
    // WH-HMAC-08's spoiled signature was ACCEPTED: the rule the target applies instead, first.
    expect(cause).toMatchObject({ id: 'WH-01', failingDependants: ['WH-HMAC-08', 'WH-HMAC-01', 'WH-HMAC-12'], acceptedInstead: ['WH-HMAC-08'] });
    expect(cause!.dependants).toEqual(['WH-HMAC-08', 'WH-HMAC-01', 'WH-HMAC-12', 'WH-HMAC-02']);
  });
});

describe('one answer for everything', () => {
  const counts = (entries: Array<[string, number]>) => new Map(entries);

  it('needs nearly every request (95 %) of at least the window to share one non-2xx answer', () => {
    expect(uniformAnswerOf(counts([['404', UNIFORM_WINDOW]]))?.message).toBe(`every request of the run got 404 (${UNIFORM_WINDOW} of ${UNIFORM_WINDOW})`);
    expect(uniformAnswerOf(counts([['404', UNIFORM_WINDOW - 1]]))).toBeUndefined();
    expect(uniformAnswerOf(counts([['502', 96], ['200', 4]]))?.message).toMatch(/^nearly every request of the run got 502 \(96 of 100\)/);
    expect(uniformAnswerOf(counts([['401', 90], ['200', 10]]))).toBeUndefined();
    expect(uniformAnswerOf(counts([['200', 100]]))).toBeUndefined();
    expect(uniformAnswerOf(counts([['TARGET_UNREACHABLE', 40]]))?.message).toMatch(/no answer \(TARGET_UNREACHABLE\)/);
  });

  it('says what to check for each kind of answer', () => {
    expect(uniformAnswerOf(counts([['404', 40]]))!.hint).toMatch(/base URL and its path prefix/);
    expect(uniformAnswerOf(counts([['401', 40]]))!.hint).toMatch(/credentials/);
    expect(uniformAnswerOf(counts([['502', 40]]))!.hint).toMatch(/proxy or gateway in front/);
    for (const answer of ['404', '401', '502', 'TIMEOUT']) expect(uniformAnswerOf(counts([[answer, 40]]))!.hint).toMatch(/Also check: the base URL and path prefix, a proxy in front, the credentials, the target's startup\./);
  });

  it('the watch looks once, at the window, and judges the whole run at the end', () => {
    const looks: Array<string | undefined> = [];
    const watch = new UniformAnswerWatch((answer) => looks.push(answer?.message));
    for (let i = 0; i < UNIFORM_WINDOW + 10; i += 1) watch.outcome({ ok: true, status: 404 });
    expect(looks).toEqual([`every one of the first ${UNIFORM_WINDOW} requests got 404 (${UNIFORM_WINDOW} of ${UNIFORM_WINDOW})`]);
    for (let i = 0; i < 20; i += 1) watch.outcome({ ok: true, status: 200 });
    expect(watch.finish()).toBeUndefined();
    expect(looks).toHaveLength(1);
  });
});
