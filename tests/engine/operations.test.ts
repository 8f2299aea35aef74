/**
 * The run's operations in the engine: the profile's description loaded (a file here; a URL goes through the
 * client) and planned, and what the header and report.json say of it: every operation not called with why.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOperationPlan, operationsNote, runOperations } from '../../src/engine/operations.js';
import type { ResolvedProfile } from '../../src/profile/types.js';
import { SMALL_YAML } from '../openapi/support.js';

const profile = (extra: Partial<ResolvedProfile>): ResolvedProfile =>
  ({ baseUrl: 'http://127.0.0.1:9', tls: { insecureSkipVerify: false }, apps: { entitlements: { large: { appId: 'APP-1', count: 237 } } }, ...extra }) as ResolvedProfile;

describe('the run\'s operations', () => {
  it('no description and no "operations": no plan, no header field', async () => {
    const plan = await loadOperationPlan(profile({}), {});
    expect(plan).toBeUndefined();
    expect(runOperations(plan)).toBeUndefined();
    expect(operationsNote(plan)).toEqual([]);
  });

  it('a description file: the header lists the called operations and each other one with its reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-ops-'));
    writeFileSync(join(dir, 'd.yaml'), SMALL_YAML);
    const plan = await loadOperationPlan(profile({ openapi: join(dir, 'd.yaml') }), {});
    const header = runOperations(plan)!;
    expect(header.description).toEqual({ source: join(dir, 'd.yaml'), openapi: '3.1.0', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), infoVersion: '0.1.0-alpha', operations: 10, paginated: 5 });
    expect(header.called.map((op) => `${op.method} ${op.path} ${op.paginated}`)).toEqual([
      'GET /api/v1/apps query',
      'GET /api/v1/apps/{app_id}/entitlements query',
      'POST /api/v1/search/apps body',
    ]);
    expect(header.called.length + header.notCalled.length).toBe(10);
    expect(header.notCalled.every((op) => op.reason.length > 0)).toBe(true);
    expect(header.notCalled.find((op) => op.method === 'DELETE')?.reason).toMatch(/never calls it/);
    // Plain data: no schema travels into the reports; the path as sent does (ruling 35: every report names it).
    expect(JSON.stringify(header)).not.toMatch(/\$defs/);
    expect(header.called.map((op) => op.sentPath)).toEqual(['/api/v1/apps', '/api/v1/apps/APP-1/entitlements', '/api/v1/search/apps']);
    expect(operationsNote(plan)[0]).toMatch(/^operations from OpenAPI 3\.1\.0 description .*d\.yaml \(10 operations, 5 paginated\): 3 checked one by one, 7 not called/);
  });

  it('the profile\'s "operations" alone', async () => {
    const plan = await loadOperationPlan(profile({ operations: [{ method: 'DELETE', path: '/api/v1/apps/{app_id}' }] }), {});
    expect(runOperations(plan)).toEqual({ called: [], notCalled: [{ method: 'DELETE', path: '/api/v1/apps/{app_id}', reason: expect.stringMatching(/^DELETE creates, changes or deletes data/) }] });
  });
});
