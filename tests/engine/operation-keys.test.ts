/**
 * Per-operation results (ruling 34): the collector expects one result per called operation of a
 * per-operation requirement, keyed `ID@METHOD path`; --only/--skip select operations; test titles map to
 * keys; a refusal is controlled by the same operation's control; the mutation judge sees a failure on any
 * operation.
 */
import { describe, expect, it } from 'vitest';
import { RunCollector } from '../../src/engine/collector.js';
import { ControlGate } from '../../src/engine/controls.js';
import { Emitter } from '../../src/engine/emitter.js';
import { operationsCostNote } from '../../src/engine/operation-keys.js';
import { resultKey } from '../../src/engine/result-key.js';
import { findRootCauses } from '../../src/engine/root-causes.js';
import { idFromTitle, operationSelector, resolveSelection } from '../../src/engine/selection.js';
import type { CheckResult } from '../../src/engine/types.js';
import { resultsById } from '../../src/mutation/check-note.js';
import { requirement, type RequirementId } from '../../src/requirements/catalogue.js';

const called = [
  { method: 'GET', path: '/api/v1/apps', operationId: 'c1.api.app.v1.Apps.List', paginated: 'query' as const },
  { method: 'POST', path: '/api/v1/search/apps', operationId: 'c1.api.app.v1.AppSearch.Search', paginated: 'body' as const },
];

function result(id: RequirementId, state: CheckResult['state'], operation?: CheckResult['operation']): CheckResult {
  const req = requirement(id);
  return { id, level: req.level, group: req.group, section: req.section, text: req.text, state, observations: [], exchanges: [], durationMs: 0, phase: 'main', ...(operation ? { operation } : {}) };
}

describe('per-operation results', () => {
  it('expands each per-operation requirement over the operations it applies to, in catalogue order', () => {
    const results = new Map<string, CheckResult>();
    const selected = resolveSelection({ only: ['OPS-01', 'OPS-14', 'PAGE-01'], skip: [] }).requirements;
    const collector = new RunCollector(selected, results, new Emitter([]), new Set(['operations', 'pagination']));
    collector.expandOperations(called);
    expect(collector.keys()).toEqual(['PAGE-01', 'OPS-01@GET /api/v1/apps', 'OPS-01@POST /api/v1/search/apps', 'OPS-14@POST /api/v1/search/apps']);
    expect(collector.idsOf('operations')).toEqual(['OPS-01@GET /api/v1/apps', 'OPS-01@POST /api/v1/search/apps', 'OPS-14@POST /api/v1/search/apps']);
    collector.check({ id: 'OPS-14@POST /api/v1/search/apps', state: 'passed', errors: [], durationMs: 1, meta: { requirementId: 'OPS-14', level: 'MUST', group: 'operations', observations: [], exchanges: [] } });
    const got = results.get('OPS-14@POST /api/v1/search/apps');
    expect(got?.operation).toEqual({ method: 'POST', path: '/api/v1/search/apps', operationId: 'c1.api.app.v1.AppSearch.Search' });
    collector.finishAll();
    expect(results.get('OPS-01@GET /api/v1/apps')?.reason).toMatch(/has no test for OPS-01@GET \/api\/v1\/apps/);
  });

  it('keeps one skipped-to-be result when a requirement applies to no operation', () => {
    const collector = new RunCollector(resolveSelection({ only: ['OPS-14'], skip: [] }).requirements, new Map(), new Emitter([]), new Set(['operations']));
    collector.expandOperations([called[0]!]);
    expect(collector.keys()).toEqual(['OPS-14']);
  });

  it('selects operations with ID@METHOD path globs, and refuses an operation part on a plain requirement', () => {
    const keep = operationSelector({ only: ['OPS-04@POST /api/v1/search/apps', 'OPS-05'], skip: ['OPS-05@GET *'] });
    expect(keep('OPS-04', called[1]!)).toBe(true);
    expect(keep('OPS-04', called[0]!)).toBe(false);
    expect(keep('OPS-05', called[1]!)).toBe(true);
    expect(keep('OPS-05', called[0]!)).toBe(false);
    expect(operationSelector({ only: ['*@c1.api.app.v1.Apps.List'], skip: [] })('OPS-11', called[0]!)).toBe(true);
    expect(resolveSelection({ only: ['OPS-04@POST /api/v1/search/apps'], skip: [] }).requirements.map((r) => r.id)).toEqual(['OPS-04']);
    expect(() => resolveSelection({ only: ['TOK-01@GET /api/v1/apps'], skip: [] })).toThrow(/matches no requirement checked per operation/);
  });

  it('reads the key from a test title', () => {
    const known = new Set(['OPS-04@POST /api/v1/search/apps', 'TOK-01']);
    expect(idFromTitle('OPS-04@POST /api/v1/search/apps nextPageToken is a string', known)).toBe('OPS-04@POST /api/v1/search/apps');
    expect(idFromTitle('TOK-01 text', known)).toBe('TOK-01');
    expect(idFromTitle('OPS-04@GET /api/v1/apps text', known)).toBeUndefined();
  });

  it('blocks a refusal by the failed control of the same operation only', () => {
    const get = { method: 'GET', path: '/api/v1/apps' };
    const post = { method: 'POST', path: '/api/v1/search/apps' };
    const keys = new Set(['OPS-18@GET /api/v1/apps', 'OPS-18@POST /api/v1/search/apps', 'OPS-01@GET /api/v1/apps', 'OPS-01@POST /api/v1/search/apps']);
    const gate = new ControlGate(keys);
    expect(gate.arrive(result('OPS-01', 'passed', get))).toEqual([]);
    gate.arrive(result('OPS-18', 'failed', post));
    expect(gate.arrive(result('OPS-01', 'passed', post)).map((r) => `${resultKey(r)} ${r.state}`)).toEqual(['OPS-01@POST /api/v1/search/apps blocked']);
    expect(gate.arrive(result('OPS-18', 'passed', get)).map((r) => `${resultKey(r)} ${r.state}`)).toEqual(['OPS-18@GET /api/v1/apps passed', 'OPS-01@GET /api/v1/apps passed']);
  });

  it('roots a failure in its own operation, and the judge sees a failure on any operation', () => {
    const post = { method: 'POST', path: '/api/v1/search/apps' };
    const results = [result('OPS-18', 'failed', post), result('OPS-05', 'failed', post), result('OPS-05', 'passed', { method: 'GET', path: '/api/v1/apps' })];
    const causes = findRootCauses(results);
    expect(causes.map((c) => [c.id, c.dependants])).toEqual([['OPS-18@POST /api/v1/search/apps', ['OPS-05@POST /api/v1/search/apps']]]);
    expect(resultsById([...results].reverse()).get('OPS-05')?.state).toBe('failed');
  });

  it('states the cost of the per-operation checks in the header', () => {
    const [note] = operationsCostNote(called, [requirement('OPS-04')]);
    expect(note).toMatch(/on 2 operations \(1 listed with the page size in the query, 1 searches with it in the JSON body\): at most 104 requests each/);
    expect(operationsCostNote(called, [requirement('TOK-01')])).toEqual([]);
  });
});
