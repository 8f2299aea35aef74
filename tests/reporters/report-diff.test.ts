import { describe, expect, it } from 'vitest';
import { diffReports, regressions } from '../../src/reporters/report-diff.js';
import { toJsonReport } from '../../src/reporters/json-report.js';
import { result, summary } from '../engine/support/fixtures.js';

describe('diffReports', () => {
  it('sorts changes into started failing, started passing, appeared, disappeared and other', () => {
    const a = toJsonReport(summary([result('A', 'passed'), result('B', 'failed'), result('C', 'passed'), result('D', 'skipped'), result('E', 'passed'), result('G', 'errored')]));
    const b = toJsonReport(summary([result('A', 'failed'), result('B', 'passed'), result('C', 'passed'), result('D', 'errored'), result('F', 'passed'), result('G', 'skipped')]));
    const diff = diffReports(a, b);
    expect(diff.startedFailing.map((e) => e.id)).toEqual(['A', 'D']);
    expect(diff.startedFailing[0]).toMatchObject({ before: 'passed', after: 'failed', detail: 'A got 200' });
    expect(diff.startedPassing.map((e) => e.id)).toEqual(['B']);
    expect(diff.appeared.map((e) => e.id)).toEqual(['F']);
    expect(diff.disappeared.map((e) => e.id)).toEqual(['E']);
    expect(diff.otherChanges.map((e) => `${e.id}:${e.before}->${e.after}`)).toEqual(['G:errored->skipped']);
    expect(diff.unchanged).toBe(1);
  });

  it('regressions: what started failing or erroring, and failing checks new in B; not what started passing or got skipped', () => {
    const a = toJsonReport(summary([result('A', 'passed'), result('B', 'failed'), result('C', 'skipped'), result('D', 'passed')]));
    const b = toJsonReport(summary([result('A', 'errored'), result('B', 'passed'), result('C', 'failed'), result('D', 'skipped'), result('E', 'failed'), result('F', 'passed')]));
    expect(regressions(diffReports(a, b)).map((e) => e.id)).toEqual(['A', 'C', 'E']);
    expect(regressions(diffReports(b, a)).map((e) => e.id)).toEqual(['B']);
    expect(regressions(diffReports(b, b))).toEqual([]);
  });
});
