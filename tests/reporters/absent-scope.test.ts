/**
 * One root cause for what is not there, and the scope, in every file reporter (issue 48), from a synthetic
 * run: three operations of four answer their valid call with 404. The Markdown, HTML and JUnit reports show
 * one root cause listing each operation once (not one per operation), the GitHub annotations one error; a
 * partial run's scope is in each summary. An operation ID a description supplies is target text: escaped.
 */
import { describe, expect, it } from 'vitest';
import { groupAbsentOperations } from '../../src/engine/absent-operations.js';
import { findRootCauses } from '../../src/engine/root-causes.js';
import { applyScope, scopedVerdict } from '../../src/engine/scope.js';
import { computeTotals } from '../../src/engine/counts.js';
import { computeVerdict } from '../../src/engine/verdict.js';
import type { CheckResult, OperationRef, RunSummary } from '../../src/engine/types.js';
import { renderGithub } from '../../src/reporters/github.js';
import { renderHtml } from '../../src/reporters/html.js';
import { renderJunit } from '../../src/reporters/junit.js';
import { renderMarkdown } from '../../src/reporters/markdown.js';
import { exchange, result, summary } from '../engine/support/fixtures.js';

const HOSTILE_ID = 'Evil<script>alert(1)</script>`](x)';
const op = (method: string, path: string, operationId: string): OperationRef => ({ method, path, operationId });
const PRESENT = op('GET', '/api/v1/apps', 'Apps.List');
const ABSENT = [op('GET', '/api/v1/users', 'Users.List'), op('POST', '/api/v1/search/tasks', 'Tasks.Search'), op('GET', '/api/v1/iam/roles', HOSTILE_ID)];

function operationResults(operation: OperationRef, status: number): CheckResult[] {
  const base = { operation, group: 'operations' };
  if (status === 200) return ['OPS-18', 'OPS-04'].map((id) => result(id, 'passed', 'MUST', base));
  const answered = { exchanges: [exchange(), exchange({ status, method: operation.method, url: `http://127.0.0.1:1${operation.path}`, responseBody: '{"error":"not_found"}' })] };
  return [
    result('OPS-18', 'failed', 'MUST', { ...base, ...answered, failure: { message: 'first page with a fresh token: got status 404', expected: 'status 200', actual: '404 (application/json)' } }),
    result('OPS-04', 'failed', 'MUST', { ...base, ...answered, failure: { message: 'walk: got status 404', expected: 'status 200', actual: '404' } }),
  ];
}

function runSummary(partial: boolean): RunSummary {
  const collected = [...operationResults(PRESENT, 200), ...ABSENT.flatMap((o) => operationResults(o, 404))];
  const { results, scope } = applyScope(collected, { partial, called: [PRESENT, ...ABSENT] });
  const rootCauses = findRootCauses(results);
  const absentOperations = groupAbsentOperations(results, rootCauses);
  return {
    ...summary(results),
    totals: computeTotals(results, false),
    verdict: scopedVerdict(computeVerdict(results, false, 0), scope),
    rootCauses,
    ...(absentOperations.length > 0 ? { absentOperations } : {}),
    ...(scope ? { scope } : {}),
  };
}

const MESSAGE = "3 operations of the description answer 404 to a valid call: not implemented here, or the profile's IDs do not exist there";
const count = (text: string, needle: string): number => text.split(needle).length - 1;

describe('three operations that answer 404: one root cause in every report', () => {
  const whole = runSummary(false);

  it('Markdown: one root-cause row and one block, each operation listed once', () => {
    const md = renderMarkdown(whole);
    expect(md).toContain('### Root causes: what did not pass (1)');
    expect(md).toContain('### What failed (1 distinct)');
    expect(count(md, MESSAGE.replace(/'/g, "'"))).toBe(2);
    for (const operation of ABSENT.slice(0, 2)) expect(count(md, `${operation.method} ${operation.path} (`), operation.path).toBe(1);
    // The hostile ID only inside code spans (rendered as text): outside them, no HTML and no link.
    expect(md.replace(/(`+)[^`][\s\S]*?\1/g, '')).not.toMatch(/<script>|\]\(x\)/);
    expect(md).toContain('Evil<script>');
  });

  it('HTML: one section listing each operation once, the roots folded in it, every text escaped', () => {
    const html = renderHtml(whole);
    expect(count(html, '<section class="absent">')).toBe(1);
    for (const operation of ABSENT.slice(0, 2)) expect(count(html, `<li>${operation.method} ${operation.path} (`), operation.path).toBe(1);
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('Evil&lt;script&gt;');
  });

  it('JUnit: every result kept as a testcase, the group named in a property and in each root failure', () => {
    const xml = renderJunit(whole);
    expect(count(xml, '<testcase ')).toBe(whole.results.length);
    expect(xml).toMatch(/<property name="absent-operations\.404" value="3 operations of the description answer 404/);
    expect(count(xml, 'one root cause with the others: 3 operations')).toBe(3);
    expect(xml).not.toContain('<script>');
  });

  it('GitHub: one error annotation for the three, none per operation', () => {
    const text = renderGithub(whole);
    expect(text.split('\n').filter((line) => line.startsWith('::error'))).toHaveLength(1);
    expect(text).toContain('3 operations answer 404');
  });
});

describe('a partial run: the scope in every summary', () => {
  const partial = runSummary(true);

  it('the verdict, and each summary, names the scope and the operations not implemented', () => {
    expect(partial.verdict).toMatchObject({ status: 'conformant', exitCode: 0 });
    expect(partial.verdict.reason).toMatch(/^conformant for 1 of 4 operations; 3 not implemented \(run --partial\)/);
    const line = '1 of 4 operations implemented and checked; 3 not implemented (run --partial)';
    expect(renderMarkdown(partial)).toContain(`Scope: ${line.replace(/[()]/g, (c) => `\\${c}`)}`);
    expect(renderHtml(partial)).toContain(`Scope: ${line}`);
    const xml = renderJunit(partial);
    expect(xml).toContain(`<property name="scope" value="${line}"/>`);
    expect(xml).toMatch(/<property name="scope\.not-implemented" value="[^"]*GET \/api\/v1\/iam\/roles \(Evil&lt;script&gt;/);
    expect(renderGithub(partial)).toContain(`::notice title=access-conformance%3A scope::Scope: ${line}`);
  });
});
