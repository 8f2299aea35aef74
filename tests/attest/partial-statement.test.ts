/**
 * The statement of a partial run (issue 48): report.json's scope goes into the extension field with the
 * operations not implemented and what declared them, and the predicate's `result` is never PASSED while
 * operations are left out (a policy that reads only `result` must not take a subset for the whole). A
 * scope that report.json does not write whole is refused, not signed.
 */
import { describe, expect, it } from 'vitest';
import { buildStatement, readAttestedReport, type AttestedReport } from '../../src/attest/statement.js';
import { CATALOGUE_VERSION } from '../../src/requirements/catalogue.js';

const HEX = 'cd'.repeat(32);
const SCOPE: NonNullable<AttestedReport['scope']> = {
  summary: '1 of 3 operations implemented and checked; 2 not implemented (run --partial)',
  sources: ['--partial'],
  operations: 3,
  implemented: [{ method: 'GET', path: '/api/v1/apps' }],
  notImplemented: [
    { operation: { method: 'GET', path: '/api/v1/users' }, source: '--partial', answered: 404 },
    { operation: { method: 'POST', path: '/api/v1/search/tasks' }, source: 'profile' },
  ],
};

function report(scope: AttestedReport['scope']): AttestedReport {
  return {
    catalogueVersion: CATALOGUE_VERSION,
    strict: false,
    verdict: { status: 'conformant', exitCode: 0, reason: 'conformant for 1 of 3 operations; 2 not implemented (run --partial)' },
    results: [
      { id: 'OPS-18', operation: { method: 'GET', path: '/api/v1/apps' }, level: 'MUST', state: 'passed' },
      { id: 'OPS-18', operation: { method: 'GET', path: '/api/v1/users' }, level: 'MUST', state: 'skipped', reason: 'not implemented (run --partial)' },
    ],
    attestation: { subject: { name: 'svc', digest: { sha256: HEX } }, from: 'subject', note: 'n' },
    ...(scope ? { scope } : {}),
  };
}
const statementOf = (scope: AttestedReport['scope']) => buildStatement({ report: report(scope), reportSha256: HEX, configuration: [] });

describe('the statement of a partial run', () => {
  it('is WARNED, never PASSED, and lists the operations not implemented with the scope\'s source', () => {
    const statement = statementOf(SCOPE);
    expect(statement.predicate.result).toBe('WARNED');
    expect(statement.predicate.accessConformance.scope).toEqual({
      summary: SCOPE.summary,
      sources: ['--partial'],
      operations: 3,
      implemented: ['GET /api/v1/apps'],
      notImplemented: [
        { operation: 'GET /api/v1/users', source: '--partial', answered: 404 },
        { operation: 'POST /api/v1/search/tasks', source: 'profile' },
      ],
    });
  });

  it('the same run without a scope is PASSED; a scope that leaves nothing out too', () => {
    expect(statementOf(undefined).predicate.result).toBe('PASSED');
    expect(statementOf(undefined).predicate.accessConformance.scope).toBeUndefined();
    expect(statementOf({ ...SCOPE, notImplemented: [] }).predicate.result).toBe('PASSED');
  });

  it('refuses report.json whose scope is not whole', () => {
    const text = (scope: unknown): string => JSON.stringify({ ...report(undefined), scope });
    expect(() => readAttestedReport(text({ ...SCOPE, summary: undefined }))).toThrow(/"scope" has no summary/);
    expect(() => readAttestedReport(text({ ...SCOPE, notImplemented: [{ operation: 'GET /x', source: '--partial' }] }))).toThrow(/names an operation without method and path/);
    expect(readAttestedReport(text(SCOPE)).scope).toEqual(SCOPE);
  });
});
