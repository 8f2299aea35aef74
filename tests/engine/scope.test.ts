/**
 * Partial implementations (issue 48) without a target: the grouping of operations that answer a valid call
 * with 404 or 501 (engine/absent-operations.ts), the profile's scope matched against a plan and its named
 * errors, `--partial` applied to results, the verdict's wording, and the profile snippet a hostile operation
 * ID cannot break out of (engine/scope.ts); the schema's refusal of a malformed or doubled scope.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { absentStatus, groupAbsentOperations } from '../../src/engine/absent-operations.js';
import { findRootCauses } from '../../src/engine/root-causes.js';
import { applyScope, declareScope, scopedVerdict, scopeSnippet } from '../../src/engine/scope.js';
import { computeVerdict } from '../../src/engine/verdict.js';
import type { CheckResult, OperationRef } from '../../src/engine/types.js';
import type { OperationPlan, PlannedOperation } from '../../src/openapi/types.js';
import { validateProfileDocument } from '../../src/profile/index.js';
import { HarnessError } from '../../src/errors.js';
import { exchange, result } from './support/fixtures.js';
import { FIXTURE } from '../profile/support.js';

const op = (method: string, path: string, operationId?: string): OperationRef => ({ method, path, ...(operationId ? { operationId } : {}) });
const APPS = op('GET', '/api/v1/apps', 'Apps.List');
const USERS = op('GET', '/api/v1/users', 'Users.List');
const TASKS = op('POST', '/api/v1/search/tasks', 'Tasks.Search');
const ROLES = op('GET', '/api/v1/iam/roles', 'Roles.List');

/** One operation's results as a run has them: its first call (OPS-18), a walk (OPS-04), a refusal (OPS-01). */
function operationResults(operation: OperationRef, status: number): CheckResult[] {
  // The token first (as a check's exchanges have it), then the operation's first call.
  const answered = { exchanges: [exchange(), exchange({ status, method: operation.method, url: `http://127.0.0.1:1${operation.path}?page_size=10`, responseBody: '{"error":"not_found"}' })] };
  if (status === 200) return ['OPS-18', 'OPS-04', 'OPS-01'].map((id) => result(id, 'passed', 'MUST', { operation, group: 'operations' }));
  return [
    result('OPS-18', 'failed', 'MUST', { operation, group: 'operations', ...answered, failure: { message: 'first page', expected: 'status 200', actual: `${status} (application/json)` } }),
    result('OPS-04', 'failed', 'MUST', { operation, group: 'operations', ...answered, failure: { message: 'walk', expected: 'status 200', actual: `${status}` } }),
    result('OPS-01', 'blocked', 'MUST', { operation, group: 'operations', blockedBy: { control: 'OPS-01', state: 'failed', message: 'own control got 404', ownRequest: true } }),
  ];
}

const planned = (ref: OperationRef): PlannedOperation => ({ ...ref, tags: [], paginated: 'query', called: true, pathParams: [], params: {}, sentPath: ref.path });
const PLAN: OperationPlan = {
  called: [APPS, USERS, TASKS, ROLES].map(planned),
  notCalled: [{ method: 'POST', path: '/api/v1/apps', operationId: 'Apps.Create', tags: [], paginated: false, called: false, reason: 'creates', pathParams: [] }],
};

describe('one root cause for what is not there', () => {
  it('groups two or more operations whose valid call got the same 404, each listed once; report keeps every result', () => {
    const results = [...operationResults(APPS, 200), ...operationResults(USERS, 404), ...operationResults(TASKS, 404), ...operationResults(ROLES, 501)];
    const groups = groupAbsentOperations(results, findRootCauses(results));
    // 501 alone is one operation: no group; it stays a root cause of its own.
    expect(groups).toHaveLength(1);
    expect(groups[0]!.message).toBe("2 operations of the description answer 404 to a valid call: not implemented here, or the profile's IDs do not exist there");
    expect(groups[0]!.operations.map((o) => `${o.method} ${o.path}`)).toEqual(['POST /api/v1/search/tasks', 'GET /api/v1/users']);
    expect(groups[0]!.roots).toEqual(['OPS-18@GET /api/v1/users', 'OPS-18@POST /api/v1/search/tasks']);
    expect(groups[0]!.dependants).toBe(4);
  });

  it('a refusal that got 404, a failure that is not 404/501, or a result without an operation is not an absent operation', () => {
    expect(absentStatus(result('OPS-01', 'failed', 'MUST', { operation: USERS, exchanges: [exchange({ status: 404 })] }))).toBeUndefined();
    // A later page's 404 is a failure of paging, not an operation that is not there: the first call counts.
    const call = (status: number, query: string) => exchange({ status, method: 'GET', url: `http://127.0.0.1:1/api/v1/users${query}` });
    expect(absentStatus(result('OPS-04', 'failed', 'MUST', { operation: USERS, exchanges: [exchange(), call(200, '?page_size=10'), call(404, '?page_token=abc')] }))).toBeUndefined();
    expect(absentStatus(result('OPS-04', 'failed', 'MUST', { operation: USERS, exchanges: [exchange(), call(404, '?page_size=10')] }))).toBe(404);
    expect(absentStatus(result('OPS-18', 'failed', 'MUST', { operation: USERS, exchanges: [exchange({ status: 500 })] }))).toBeUndefined();
    expect(absentStatus(result('TOK-01', 'failed', 'MUST', { exchanges: [exchange({ status: 404 })] }))).toBeUndefined();
    // No exchange kept: the status the failure names.
    expect(absentStatus(result('OPS-18', 'failed', 'MUST', { operation: USERS, failure: { message: 'm', expected: 'status 200', actual: '501 (text/plain)' } }))).toBe(501);
  });
});

describe('the profile\'s "scope"', () => {
  it('implements: every other called operation leaves the plan, listed as never called by the scope', () => {
    const declared = declareScope(PLAN, { implements: ['Apps.List', 'get /api/v1/users'] })!;
    expect(declared.plan.called.map((o) => o.path)).toEqual(['/api/v1/apps', '/api/v1/users']);
    expect(declared.left.map((o) => o.path)).toEqual(['/api/v1/search/tasks', '/api/v1/iam/roles']);
    expect(declared.plan.notCalled.at(-1)).toMatchObject({ path: '/api/v1/iam/roles', called: false, reason: expect.stringContaining('"scope"') });
  });

  it('excludes: the named operations leave the plan, the others stay', () => {
    const declared = declareScope(PLAN, { excludes: ['Tasks.Search'] })!;
    expect(declared.plan.called.map((o) => o.path)).toEqual(['/api/v1/apps', '/api/v1/users', '/api/v1/iam/roles']);
  });

  it('an entry that names nothing, or an ID two operations share, is PROFILE_INVALID naming the entry; a scope without operations too', () => {
    const caught = (fn: () => unknown): HarnessError => {
      try {
        fn();
      } catch (error) {
        return error as HarnessError;
      }
      throw new Error('no error');
    };
    const unknown = caught(() => declareScope(PLAN, { excludes: ['Tasks.Search', 'GET /api/v1/nope'] }));
    expect(unknown).toBeInstanceOf(HarnessError);
    expect(unknown.code).toBe('PROFILE_INVALID');
    expect(unknown.field).toBe('scope.excludes[1]');
    expect(unknown.message).toContain('"GET /api/v1/nope" names no operation');
    const shared: OperationPlan = { ...PLAN, called: [...PLAN.called, planned(op('GET', '/api/v2/apps', 'Apps.List'))] };
    expect(caught(() => declareScope(shared, { implements: ['Apps.List'] })).message).toMatch(/scope\.implements\[0\] "Apps\.List" names 2 operations/);
    expect(caught(() => declareScope(undefined, { implements: [] })).field).toBe('scope');
  });

  it('the schema refuses an entry that is neither an ID nor METHOD /path, both keys at once, and an unknown key', () => {
    const base = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, unknown>;
    expect(validateProfileDocument({ ...base, scope: { implements: ['Apps.List', 'GET /api/v1/users'] } })).toEqual({ ok: true });
    for (const scope of [{ excludes: ['not an entry'] }, { implements: [], excludes: ['Apps.List'] }, { includes: ['Apps.List'] }, { excludes: [] }]) {
      const checked = validateProfileDocument({ ...base, scope });
      expect(checked.ok, JSON.stringify(scope)).toBe(false);
      if (!checked.ok) expect(checked.errors.some((e) => e.path.startsWith('scope')), JSON.stringify(checked.errors)).toBe(true);
    }
  });
});

describe('run --partial', () => {
  const results = [...operationResults(APPS, 200), ...operationResults(USERS, 404), ...operationResults(TASKS, 501)];

  it('an operation whose valid call got 404 or 501 is not implemented: its results skipped, the verdict says for how many', () => {
    const { results: scoped, scope } = applyScope(results, { partial: true, called: [APPS, USERS, TASKS] });
    const users = scoped.filter((r) => r.operation?.path === '/api/v1/users');
    expect(users.map((r) => r.state)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(users[0]).toMatchObject({ notImplemented: { source: '--partial', answered: 404 } });
    expect(users[0]!.failure).toBeUndefined();
    expect(scope!.notImplemented.map((n) => [n.operation.path, n.answered])).toEqual([
      ['/api/v1/users', 404],
      ['/api/v1/search/tasks', 501],
    ]);
    const verdict = scopedVerdict(computeVerdict(scoped, false, 0), scope);
    expect(verdict).toMatchObject({ status: 'conformant', exitCode: 0 });
    expect(verdict.reason).toMatch(/^conformant for 1 of 3 operations; 2 not implemented \(run --partial\)/);
  });

  it('an operation the profile declares stays a failure; every operation there: no scope at all (nothing changes)', () => {
    const declared = declareScope({ ...PLAN, called: [APPS, USERS, TASKS].map(planned) }, { excludes: ['Tasks.Search'] })!;
    const { results: scoped, scope } = applyScope(results, { partial: true, declared: { ...declared, named: new Set(['GET /api/v1/users', 'POST /api/v1/search/tasks']) }, called: [APPS, USERS] });
    expect(scoped.find((r) => r.id === 'OPS-18' && r.operation?.path === '/api/v1/users')!.state).toBe('failed');
    expect(scope!.sources).toEqual(['profile', '--partial']);
    expect(computeVerdict(scoped, false, 0).exitCode).toBe(1);
    const whole = operationResults(APPS, 200);
    expect(applyScope(whole, { partial: true, called: [APPS] })).toEqual({ results: whole });
  });

  it('counts only the operations the run has results for (--only may keep a few of the plan\'s)', () => {
    const { scope } = applyScope(results, { partial: true, called: [APPS, USERS, TASKS, ROLES] });
    expect(scope!.operations).toBe(3);
    expect(scope!.summary).toBe('1 of 3 operations implemented and checked; 2 not implemented (run --partial)');
  });

  it('the snippet is valid JSON in printable ASCII that reads back every name exactly, a hostile ID included', () => {
    const hostile = 'x"]}\u001b[2J\u202e\u2028😀';
    const { scope } = applyScope(results, { partial: true, called: [op('GET', '/api/v1/apps', hostile), USERS, TASKS] });
    const text = scopeSnippet(scope!);
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    expect(JSON.parse(text)).toEqual({ scope: { implements: [hostile] } });
  });
});
