/**
 * `list --openapi` as a user runs it: the built CLI, from the repository root, on the real description by
 * its relative path (skipped, saying why, where ../shared/ is absent), and on broken files (exit 2).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/support.js';
import { fixtureDoc, material } from '../profile/support.js';
import { HAS_REAL_DESCRIPTION, NO_REAL_DESCRIPTION_REASON, REAL_DESCRIPTION_RELATIVE, SMALL_YAML } from './support.js';
import { skipUnless } from '../support/capabilities.js';

interface Listed {
  method: string;
  path: string;
  operationId?: string;
  paginated: 'query' | 'body' | false;
  called: boolean;
  reason?: string;
}

describe('list --openapi', () => {
  it(`the real description, --format json: 203 classified, 53 paginated, nothing that changes data called`, async (ctx) => {
    skipUnless(ctx, 'real-description', HAS_REAL_DESCRIPTION, NO_REAL_DESCRIPTION_REASON);
    const result = await runCli(['list', '--openapi', REAL_DESCRIPTION_RELATIVE, '--format', 'json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const listing = JSON.parse(result.stdout) as { openapi: string; counts: Record<string, number>; operations: Listed[] };
    expect(listing.openapi).toBe('3.1.0');
    expect(listing.operations).toHaveLength(203);
    for (const op of listing.operations) {
      expect(Object.keys(op)).toEqual(expect.arrayContaining(['method', 'path', 'paginated', 'called']));
      expect(op.reason === undefined, `${op.method} ${op.path}`).toBe(op.called);
    }
    expect(listing.operations.filter((op) => op.paginated === 'query')).toHaveLength(29);
    expect(listing.operations.filter((op) => op.paginated === 'body')).toHaveLength(24);
    expect(listing.operations.filter((op) => op.called && !(op.method === 'GET' || op.method === 'POST'))).toEqual([]);
    expect(listing.operations.filter((op) => op.called && op.paginated === false)).toEqual([]);
    expect(listing.counts).toMatchObject({ operations: 203, paginated: 53, called: 53, notCalled: 150 });
  });

  it('text groups the operations: called first, then each reason for not calling', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-openapi-'));
    writeFileSync(join(dir, 'small.yaml'), SMALL_YAML);
    const result = await runCli(['list', '--openapi', join(dir, 'small.yaml')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/10 operations: 5 paginated \(3 in the query of a GET, 2 in the JSON body of a POST\)/);
    expect(result.stdout).toMatch(/Called \(4\):\n {2}GET {4}\/api\/v1\/apps {2}c1\.api\.app\.v1\.Apps\.List {2}\(query\)/);
    expect(result.stdout).toMatch(/Not called \(1\): DELETE creates, changes or deletes data/);
  });

  it('with --profile: the plan of a run (path parameters from the profile, or why not)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-openapi-'));
    writeFileSync(join(dir, 'small.yaml'), SMALL_YAML);
    const { env } = await material();
    writeFileSync(join(dir, 'target.json'), JSON.stringify({ ...fixtureDoc(), openapi: 'small.yaml' }));
    const result = await runCli(['list', '--profile', join(dir, 'target.json'), '--format', 'json'], { env });
    expect(result.stderr).toBe('');
    const listing = JSON.parse(result.stdout) as { plannedWith: string; operations: Array<Listed & { params?: Record<string, string> }> };
    expect(listing.plannedWith).toBe('profile');
    expect(listing.operations.find((op) => op.path === '/api/v1/apps/{app_id}/entitlements')?.params).toEqual({ app_id: 'app-large' });
    expect(listing.operations.find((op) => op.path.endsWith('/grants'))?.reason).toMatch(/path parameter \{user_id\} cannot be filled from the profile/);
  });

  it('a broken or missing file: exit 2 with the stable code, the file and the line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-openapi-'));
    writeFileSync(join(dir, 'broken.yaml'), 'openapi: 3.1.0\npaths:\n  /a: [unclosed\n');
    const broken = await runCli(['list', '--openapi', join(dir, 'broken.yaml')]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/error\[OPENAPI_INVALID\].*broken\.yaml is not valid YAML \(at line \d+, column \d+\)/);
    const missing = await runCli(['list', '--openapi', join(dir, 'nope.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/error\[OPENAPI_UNREADABLE\].*nope\.yaml cannot be read: there is no such file/);
  });
});

describe('run --openapi', () => {
  it(`the real description against the embedded reference: DESC-01/02 pass, DESC-03 skipped (no owner-IDs path), info.version recorded; report.json lists what was never called`, async (ctx) => {
    skipUnless(ctx, 'real-description', HAS_REAL_DESCRIPTION, NO_REAL_DESCRIPTION_REASON);
    const out = mkdtempSync(join(tmpdir(), 'ac-openapi-run-'));
    const result = await runCli(['run', '--openapi', REAL_DESCRIPTION_RELATIVE, '--only', 'DESC-*', '--reporter', 'json', '--out', out], { timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/note: operations from OpenAPI 3\.1\.0 description .*conductorone-2025-09\.openapi\.yaml \(203 operations, 53 paginated\)/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      results: Array<{ id: string; state: string; reason?: string; observations?: string[] }>;
      operations: { description: { openapi: string }; called: unknown[]; notCalled: Array<{ method: string; reason: string }> };
    };
    const byId = new Map(report.results.map((r) => [r.id, r]));
    expect(byId.get('DESC-01')?.state).toBe('passed');
    expect(byId.get('DESC-02')?.state).toBe('passed');
    expect(byId.get('DESC-03')).toMatchObject({ state: 'skipped', reason: expect.stringMatching(/has no GET \/api\/v1\/apps\/\{app_id\}\/ownerids/) });
    expect(byId.get('DESC-04')?.observations?.join(' ')).toMatch(/info\.version "0\.1\.0-alpha"/);
    expect(report.operations.called.length + report.operations.notCalled.length).toBe(203);
    expect(report.operations.notCalled.filter((op) => op.method === 'DELETE')).toHaveLength(27);
  });

  it('list finds a spoiled operation as run does (both bundle the answer schemas before any request): a schema loop leaves one search out, the rest listed; a repeated JSON key exits 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-openapi-'));
    // The small description, its search answering a schema that applies itself.
    const answer = "schema: { $ref: '#/components/schemas/ListAppsResponse' }\n  /api/v1/legacy/find:";
    expect(SMALL_YAML).toContain(answer);
    const looped = SMALL_YAML.replace(answer, answer.replace('ListAppsResponse', 'Loop')).replace('\n  schemas:\n', '\n  schemas:\n    Loop: { allOf: [{ $ref: "#/components/schemas/Loop" }] }\n');
    writeFileSync(join(dir, 'looped.yaml'), looped);
    const listed = await runCli(['list', '--openapi', join(dir, 'looped.yaml'), '--format', 'json']);
    expect(listed.code, listed.stderr).toBe(0);
    const operations = (JSON.parse(listed.stdout) as { operations: Array<{ method: string; path: string; called: boolean; reason?: string }> }).operations;
    const search = operations.find((op) => op.method === 'POST' && op.path === '/api/v1/search/apps');
    expect(search?.called).toBe(false);
    expect(search?.reason).toMatch(/applies itself without end \(#\/components\/schemas\/Loop → #\/components\/schemas\/Loop\)/);
    expect(operations.filter((op) => op.called).length).toBeGreaterThan(0);
    expect(listed.stderr).not.toMatch(/INTERNAL/);
    writeFileSync(join(dir, 'dup.json'), '{"openapi":"3.1.0","paths":{"/a":{"get":{}},"/a":{}}}');
    const dup = await runCli(['list', '--openapi', join(dir, 'dup.json')]);
    expect(dup.code).toBe(2);
    expect(dup.stderr).toMatch(/error\[OPENAPI_INVALID\].*repeats the key "\/a" in one object \(at line 1, column 45\)/);
  });

  it('a broken description stops the run before any check: exit 2, OPENAPI_INVALID with the line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-openapi-'));
    writeFileSync(join(dir, 'broken.yaml'), 'openapi: 3.1.0\npaths:\n  /a: [unclosed\n');
    const result = await runCli(['run', '--openapi', join(dir, 'broken.yaml'), '--only', 'DESC-01', '--out', join(dir, 'reports')], { timeoutMs: 120_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/error\[OPENAPI_INVALID\].*broken\.yaml is not valid YAML \(at line \d+, column \d+\)/);
  });
});
