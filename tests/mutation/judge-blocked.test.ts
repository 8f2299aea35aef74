/**
 * How the self-verification judges blocked checks (docs/faults.md, "Blocked checks"): a fault is caught
 * only by its declared checks FAILING. A declared check that is merely blocked (its positive control failed,
 * so its refusal proved nothing) catches nothing; a blocked check outside the declaration is explained by
 * its control when that control is declared and did not pass, and is unexplained otherwise.
 */
import { describe, expect, it } from 'vitest';
import { getFault } from '../../src/faults/index.js';
import { planFault } from '../../src/mutation/verify-plan.js';
import { judgeFault, type FinishedRun } from '../../src/mutation/verify.js';
import type { RunReport } from '../../src/mutation/runner/protocol.js';

const fault = getFault('hmac-decoded-key')!;

function run(results: RunReport['results']): FinishedRun {
  return { plan: planFault(fault), report: { results, harnessErrors: [] }, durationMs: 1 };
}

const failed = (id: string) => ({ id, state: 'failed' as const, failure: { message: `${id} failed` } });
const passed = (id: string) => ({ id, state: 'passed' as const });
const blockedBy = (id: string, control: string) => ({ id, state: 'blocked' as const, blockedBy: { control } });

describe('judging blocked checks', () => {
  it('the fault as it runs: its breaks fail, its control-dependent refusals are blocked and explained by the failed control', () => {
    expect(fault.breaks).toEqual(['WH-HMAC-01', 'WH-HMAC-08']);
    const outcome = judgeFault(fault, run([failed('WH-01'), failed('WH-HMAC-01'), failed('WH-HMAC-08'), failed('WH-HMAC-12'), blockedBy('WH-HMAC-02', 'WH-HMAC-01'), blockedBy('WH-06', 'WH-01'), passed('OWN-01')]));
    expect(outcome).toMatchObject({ caught: true, verified: true, unexplained: [], missing: [] });
  });

  it('a fault whose declared check is only blocked is NOT caught: blocked is not failed', () => {
    const outcome = judgeFault(fault, run([failed('WH-01'), failed('WH-HMAC-01'), blockedBy('WH-HMAC-08', 'WH-HMAC-01'), failed('WH-HMAC-12')]));
    expect(outcome.caught).toBe(false);
    expect(outcome.verified).toBe(false);
    expect(outcome.caughtBreaks).toEqual(['WH-HMAC-01']);
    expect(outcome.missing).toEqual([{ id: 'WH-HMAC-08', state: 'blocked', message: 'its positive control WH-HMAC-01 did not pass' }]);
  });

  it('a blocked check whose control the fault does not declare is unexplained: the fault broke more than it says', () => {
    const outcome = judgeFault(fault, run([failed('WH-01'), failed('WH-HMAC-01'), failed('WH-HMAC-08'), failed('WH-HMAC-12'), failed('TOK-02'), blockedBy('TOK-09', 'TOK-02')]));
    expect(outcome.caught).toBe(true);
    expect(outcome.verified).toBe(false);
    expect(outcome.unexplained.map((note) => `${note.id} ${note.state}`)).toEqual(['TOK-02 failed', 'TOK-09 blocked']);
  });

  it('a blocked check whose control passed (its own control request was refused) needs an explanation of its own', () => {
    const own = { id: 'IDEM-01', state: 'blocked' as const, blockedBy: { control: 'IDEM-01', ownRequest: true } };
    const outcome = judgeFault(fault, run([failed('WH-01'), failed('WH-HMAC-01'), failed('WH-HMAC-08'), failed('WH-HMAC-12'), own]));
    // IDEM-01's control is WH-01, which the fault explains and which failed: explained through it.
    expect(outcome.unexplained).toEqual([]);
    const alone = judgeFault(fault, run([passed('WH-01'), failed('WH-HMAC-01'), failed('WH-HMAC-08'), failed('WH-HMAC-12'), own]));
    expect(alone.unexplained.map((note) => note.id)).toEqual(['IDEM-01']);
  });
});
