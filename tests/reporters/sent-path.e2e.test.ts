/**
 * Every report names the path actually sent (ruling 35): a per-operation result of the embedded reference
 * with a fault that breaks the default page size on every paginated operation, written as report.json,
 * report.html, junit.xml and summary.md; each names `sent: GET /api/v1/apps/<the app's ID>/entitlements`,
 * the template filled, and report.json carries it as `operation.sentPath`, valid against
 * schemas/report.schema.json.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/support.js';
import { reportValidator } from './validators.js';

describe('the path actually sent, in every report', () => {
  it('json, html, junit and markdown name it for a failed per-operation check', async () => {
    const out = mkdtempSync(join(tmpdir(), 'ac-sent-path-'));
    const run = await runCli(['run', '--fault', 'page-size-default-50', '--only', 'OPS-05@GET /api/v1/apps/*', '--reporter', 'json', '--reporter', 'html', '--reporter', 'junit', '--reporter', 'markdown', '--out', out], { timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(1);
    const raw: unknown = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect((await reportValidator())(raw)).toEqual([]);
    const report = raw as { results: Array<{ id: string; state: string; operation?: { path: string; sentPath?: string } }> };
    const failed = report.results.find((result) => result.state === 'failed' && result.operation?.path === '/api/v1/apps/{app_id}/entitlements');
    const sent = failed?.operation?.sentPath;
    expect(sent).toMatch(/^\/api\/v1\/apps\/[A-Za-z0-9]+\/entitlements$/);
    const line = `sent: GET ${sent}`;
    for (const file of ['report.html', 'junit.xml', 'summary.md']) expect(readFileSync(join(out, file), 'utf8'), file).toContain(line);
    expect(run.stdout).toContain(line);
  }, 150_000);
});
