/**
 * A passed check's exchanges reach its result only when something will read them (a reporter that says
 * so, html and har; or a caller without reporters, who reads the summary): otherwise the suite thread
 * drops them unread, and so never redacts them or ships them to the main thread. Failed checks keep
 * theirs whatever the reporters. The run itself is in a child process (support/passed-exchanges-run.ts).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HarReporter } from '../../src/reporters/har.js';
import { REPORTERS } from '../../src/reporters/index.js';
import { runChildJson } from './support/child-json.js';

const SCRIPT = fileURLToPath(new URL('../../dist/tests/engine/support/passed-exchanges-run.js', import.meta.url));

type Counts = { passed: number; passedWithExchanges: number; passedWithoutControlWithExchanges: number; notPassedWithExchanges: number };

function runChild(): Promise<Record<string, Counts> & { error?: string; blocked?: { count: number; withExchanges: number } }> {
  return runChildJson(SCRIPT);
}

describe('passed checks\' exchanges', () => {
  it('are kept for a reporter that reads them or does not say, and for a run without reporters; dropped otherwise; failures keep theirs', async () => {
    const out = await runChild();
    expect(out.error).toBeUndefined();
    for (const name of ['reads', 'unsaid', 'none', 'doesNotRead']) {
      expect(out[name]!.passed, name).toBeGreaterThan(2);
      // The fault fails some checks in every run, and those keep what showed it.
      expect(out[name]!.notPassedWithExchanges, name).toBeGreaterThan(0);
    }
    for (const name of ['reads', 'unsaid', 'none']) expect(out[name]!.passedWithExchanges, name).toBe(out[name]!.passed);
    expect(out.doesNotRead!.passedWithoutControlWithExchanges).toBe(0);
    expect(out.doesNotRead!.passedWithExchanges).toBeLessThan(out.doesNotRead!.passed);
    // Refusals blocked by a failed control keep what they sent, though no reporter reads passed checks'.
    expect(out.blocked!.count).toBeGreaterThan(0);
    expect(out.blocked!.withExchanges).toBe(out.blocked!.count);
  }, 160_000);

  it('are read by the html report and the HAR only, of the reporters the CLI has', () => {
    const reads = Object.entries(REPORTERS)
      .filter(([, Reporter]) => new Reporter({} as never).readsPassedExchanges !== false)
      .map(([name]) => name);
    expect(reads).toEqual(['html']);
    expect(new HarReporter({} as never).readsPassedExchanges).toBe(true);
  });
});
