/**
 * Totals and the verdict. The rules (docs/running.md "Exit codes"):
 * - a MUST that failed (or, with --strict, a SHOULD) and that the baseline does not expect → 1;
 * - otherwise a check that errored (the harness could not decide) or an error outside any check → 2;
 * - otherwise a blocked MUST (or, with --strict, SHOULD) that the baseline does not expect → 2;
 * - otherwise nothing checked (every check the selection named skipped: a control it pulled in that passed
 *   proves nothing on its own) → 2;
 * - otherwise 0. SHOULD failures without --strict are warnings; INFO never counts.
 * A failure beats a harness error: a target shown to break a MUST is not conformant whatever else went wrong.
 */
import { signalExitCode } from '../errors.js';
import type { CheckResult, RunAbort, Verdict } from './types.js';

/** A failure that counts against conformance at this strictness. */
export function isBlocking(result: CheckResult, strict: boolean): boolean {
  if (result.state !== 'failed' || result.expectedFailure) return false;
  return result.level === 'MUST' || (strict && result.level === 'SHOULD');
}

export function computeVerdict(results: readonly CheckResult[], strict: boolean, outsideErrors: number): Verdict {
  const blocking = results.filter((r) => isBlocking(r, strict));
  if (blocking.length > 0) {
    const must = blocking.filter((r) => r.level === 'MUST').length;
    const should = blocking.length - must;
    const parts = [must > 0 ? `${must} MUST` : '', should > 0 ? `${should} SHOULD (--strict)` : ''].filter(Boolean);
    return { status: 'not-conformant', exitCode: 1, reason: `${parts.join(' and ')} requirement${blocking.length === 1 ? '' : 's'} failed` };
  }
  const errored = results.filter((r) => r.state === 'errored').length;
  if (errored > 0 || outsideErrors > 0) {
    const what = errored > 0 ? `${errored} check${errored === 1 ? '' : 's'} could not be decided (harness errors)` : 'the harness failed outside any check';
    return { status: 'error', exitCode: 2, reason: what };
  }
  // A blocked MUST (or SHOULD with --strict) proved nothing: the run cannot call the target conformant.
  const blocked = results.filter((r) => r.state === 'blocked' && !r.expectedFailure && (r.level === 'MUST' || (strict && r.level === 'SHOULD'))).length;
  if (blocked > 0) {
    return { status: 'error', exitCode: 2, reason: `${blocked} check${blocked === 1 ? ' was' : 's were'} blocked: ${blocked === 1 ? 'its' : 'their'} positive control did not pass, so a refusal proves nothing` };
  }
  // A pulled-in control is there for the refusal checks it controls: when they were all skipped, its pass
  // checked nothing the selection asked about.
  const named = results.filter((r) => !r.pulledIn);
  const checked = named.filter((r) => r.state === 'passed' || r.state === 'failed').length;
  if (checked === 0) {
    const pulled = results.length - named.length;
    const also = pulled > 0 ? `; the ${pulled === 1 ? 'positive control' : `${pulled} positive controls`} it pulled in decided nothing` : '';
    return { status: 'error', exitCode: 2, reason: `nothing was checked: ${describeSkips(named)}${also}` };
  }
  const expected = results.filter((r) => r.expectedFailure).length;
  const beyond = expected > 0 ? ` beyond the baseline (${expected} expected: ${expected === 1 ? 'a check it lists or one that depends on it' : 'checks it lists and those that depend on them'})` : '';
  return { status: 'conformant', exitCode: 0, reason: `${strict ? 'no MUST or SHOULD requirement failed' : 'no MUST requirement failed'}${beyond}` };
}

/**
 * The verdict of a run that stopped before it finished: nothing is decided about conformance, whatever
 * finished first. A signal is `interrupted` with the code the process really ends with (130 / 143), so
 * every report agrees with the shell; any other stop is a harness error (exit 2).
 */
export function abortedVerdict(aborted: RunAbort): Verdict {
  if (aborted.signal) {
    return { status: 'interrupted', exitCode: signalExitCode(aborted.signal), reason: `the run was interrupted by ${aborted.signal} before it finished` };
  }
  return { status: 'error', exitCode: 2, reason: `the run stopped before it finished: ${aborted.message}` };
}

/** "all 3 selected checks were skipped (2× target offers no clock hook, 1× profile has no webhooks.jwt)". */
export function describeSkips(results: readonly CheckResult[]): string {
  const reasons = new Map<string, number>();
  for (const result of results) {
    if (result.state === 'skipped') reasons.set(result.reason ?? 'no reason', (reasons.get(result.reason ?? 'no reason') ?? 0) + 1);
  }
  const list = [...reasons.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([reason, n]) => `${n}× ${reason}`);
  return `all ${results.length} selected check${results.length === 1 ? ' was' : 's were'} skipped (${list.join('; ')})`;
}

/** SHOULD failures that did not fail the run, as lines. */
export function shouldWarnings(results: readonly CheckResult[], strict: boolean): string[] {
  if (strict) return [];
  return results
    .filter((r) => r.state === 'failed' && r.level === 'SHOULD' && !r.expectedFailure)
    .map((r) => `${r.id} (SHOULD) ${r.failure?.message ?? r.text}`);
}
