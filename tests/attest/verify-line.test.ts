/**
 * `verify`'s last line (issues 47 and 48): what it checked, each check it did not do with the flag that does
 * it, and the scope: a valid attestation never ends with a bare "valid" that hides an unchecked subject,
 * and a certificate of a part of the description says so.
 */
import { describe, expect, it } from 'vitest';
import type { VerifyCheck, VerifyOutcome } from '../../src/attest/verify.js';
import type { TestResultStatement } from '../../src/attest/statement.js';
import { renderOutcome } from '../../src/cli/commands/verify.js';

const ok = (name: VerifyCheck['name']): VerifyCheck => ({ name, ok: true, detail: 'fine' });
const unchecked = (name: VerifyCheck['name']): VerifyCheck => ({ name, ok: undefined, detail: 'not checked' });

function outcome(checks: VerifyCheck[], scope?: { summary: string; notImplemented: unknown[] }): VerifyOutcome {
  const statement = {
    predicate: {
      result: scope ? 'WARNED' : 'PASSED',
      passedTests: ['TOK-01'],
      warnedTests: [],
      failedTests: [],
      accessConformance: { skippedTests: [], blockedTests: [], results: 1, verdict: { status: 'conformant', exitCode: 0, reason: 'r' }, ...(scope ? { scope } : {}) },
    },
  } as unknown as TestResultStatement;
  return { checks: [ok('bundle'), ok('signature'), ok('statement'), ok('predicate type'), ...checks, ok('catalogue')], valid: true, statement, signer: 'key ab12' };
}
const lastLine = (text: string): string => text.trimEnd().split('\n').at(-1)!;

describe('verify: the last line of a valid attestation', () => {
  it('without --subject: says the subject was not checked and which flag checks it', () => {
    expect(lastLine(renderOutcome(outcome([unchecked('subject'), ok('report')]), 'a.json'))).toBe(
      'signature and report valid (signed by key ab12); subject not checked: give --subject; scope: whole (no operation left out)',
    );
  });

  it('with neither --subject nor --report: both named; with both: nothing left unchecked', () => {
    expect(lastLine(renderOutcome(outcome([unchecked('subject'), unchecked('report')]), 'a.json'))).toBe(
      'signature valid (signed by key ab12); subject not checked: give --subject; report not checked: give --report; scope: whole (no operation left out)',
    );
    expect(lastLine(renderOutcome(outcome([ok('subject'), ok('report')]), 'a.json'))).toBe('signature, subject and report valid (signed by key ab12); scope: whole (no operation left out)');
  });

  it('a partial scope: in the last line, and beside the result', () => {
    const summary = '5 of 39 operations implemented and checked; 34 not implemented (run --partial)';
    const text = renderOutcome(outcome([ok('subject'), ok('report')], { summary, notImplemented: [{ operation: 'GET /api/v1/webhooks', source: '--partial', answered: 404 }] }), 'a.json');
    expect(lastLine(text)).toBe(`signature, subject and report valid (signed by key ab12); scope: ${summary}, a certificate of those operations only`);
    expect(text).toContain(`result WARNED (partial scope: ${summary}): 1 passed`);
    // A declared scope that leaves nothing out certifies the whole.
    const whole = renderOutcome(outcome([ok('subject'), ok('report')], { summary: '5 of 5 operations implemented and checked; 0 not implemented', notImplemented: [] }), 'a.json');
    expect(lastLine(whole)).toMatch(/; scope: whole \(no operation left out\)$/);
  });
});
