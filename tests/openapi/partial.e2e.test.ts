/**
 * Partial implementations (issue 48) as an implementer meets them: the built CLI, the real description
 * (`../shared/openapi/`; skipped, saying why, where it is absent) against the sandbox, which implements 5 of
 * the description's list and search operations by design.
 * - without --partial: exit 1, at most three root-cause blocks on the console, one naming every operation
 *   that answers 404 once; report.json keeps every result;
 * - with --partial: exit 0, the verdict names the operations not implemented, report.json lists them, the
 *   profile snippet it prints parses and, put in a profile, gives the same verdict without --partial;
 * - --attest: the statement lists them, its result is WARNED (never PASSED), verify's last line names the
 *   scope and the subject it did not check;
 * - a full implementation (the embedded default, the reference's own operations): --partial changes nothing.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../cli/support.js';
import { keyPair, statementOf, type SerializedBundle } from '../attest/support.js';
import { startServe, type Serve } from '../hostile/serve-support.js';
import { describeWith } from '../support/capabilities.js';
import { HAS_REAL_DESCRIPTION, NO_REAL_DESCRIPTION_REASON, REAL_DESCRIPTION, REAL_DESCRIPTION_RELATIVE } from './support.js';

interface Report {
  results: Array<{ id: string; state: string; operation?: { method: string; path: string }; notImplemented?: { source: string; answered?: number } }>;
  verdict: { status: string; exitCode: number; reason: string };
  scope?: { summary: string; sources: string[]; operations: number; implemented: unknown[]; notImplemented: Array<{ operation: { method: string; path: string }; source: string; answered?: number }> };
  absentOperations?: Array<{ status: number; message: string; operations: Array<{ method: string; path: string }>; roots: string[] }>;
  operations?: { called: unknown[] };
}

const dir = mkdtempSync(join(tmpdir(), 'ac-partial-'));
const readReport = (out: string): Report => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
const run = (name: string, args: string[]): Promise<CliResult & { out: string }> => {
  const out = join(dir, name);
  return runCli(['run', '--reporter', 'console,json', '--out', out, ...args], { timeoutMs: 150_000 }).then((result) => ({ ...result, out }));
};
/** The profile snippet a --partial run prints: the indented JSON after its introducing line. */
function printedSnippet(stdout: string): unknown {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => line.includes('put this in the profile')) + 1;
  const end = lines.findIndex((line, index) => index > start && line === '  }');
  return JSON.parse(lines.slice(start, end + 1).join('\n'));
}

describeWith('real-description', HAS_REAL_DESCRIPTION, NO_REAL_DESCRIPTION_REASON, 'the real description against the sandbox', () => {
  const real = ['--openapi', REAL_DESCRIPTION_RELATIVE, '--only', 'OPS-*', '--seed', '5eed0048'];
  let whole: CliResult & { out: string };
  let partial: CliResult & { out: string };
  let serve: Serve;

  beforeAll(async () => {
    whole = await run('whole', real);
    partial = await run('partial', [...real, '--partial']);
  }, 300_000);
  afterAll(async () => serve?.close());

  it('without --partial: exit 1, at most three root-cause blocks, one naming each operation that answers 404 once', () => {
    expect(whole.code, whole.stderr).toBe(1);
    const blocks = whole.stdout.split('\n').filter((line) => line.startsWith('✗ '));
    expect(blocks.length).toBeLessThanOrEqual(3);
    const report = readReport(whole.out);
    const group = report.absentOperations?.[0];
    // The sandbox implements 5 of the 39 operations the description's plan calls: 34 answer 404.
    expect(report.operations?.called).toHaveLength(39);
    expect(group?.operations).toHaveLength(34);
    expect(blocks).toContain("✗ 34 operations of the description answer 404 to a valid call: not implemented here, or the profile's IDs do not exist there");
    for (const operation of group!.operations) {
      const label = `${operation.method} ${operation.path} (`;
      expect(whole.stdout.split('\n').filter((line) => line.trimStart().startsWith(label)), label).toHaveLength(1);
    }
    // report.json keeps every result: each grouped root is still a failed result of its own.
    expect(group!.roots).toHaveLength(34);
    for (const root of group!.roots) expect(report.results.some((r) => r.operation && `${r.id}@${r.operation.method} ${r.operation.path}` === root && r.state === 'failed')).toBe(true);
    expect(report.results).toHaveLength(readReport(partial.out).results.length);
  });

  it('with --partial: exit 0, the verdict names 34 not implemented, report.json lists them, the snippet pins the 5', () => {
    expect(partial.code, partial.stdout.slice(-3000)).toBe(0);
    expect(partial.stdout).toMatch(/^verdict: conformant \(exit 0\): conformant for 5 of 39 operations; 34 not implemented \(run --partial\)/m);
    expect(partial.stdout.split('\n').filter((line) => line.startsWith('✗ '))).toEqual([]);
    const report = readReport(partial.out);
    expect(report.scope?.sources).toEqual(['--partial']);
    expect(report.scope?.notImplemented).toHaveLength(34);
    expect(new Set(report.scope!.notImplemented.map((entry) => `${entry.operation.method} ${entry.operation.path}`))).toEqual(
      new Set(readReport(whole.out).absentOperations![0]!.operations.map((o) => `${o.method} ${o.path}`)),
    );
    expect(report.scope!.notImplemented.every((entry) => entry.answered === 404 && entry.source === '--partial')).toBe(true);
    expect(report.results.filter((r) => r.notImplemented).every((r) => r.state === 'skipped')).toBe(true);
    const snippet = printedSnippet(partial.stdout) as { scope: { implements: string[] } };
    expect(snippet.scope.implements).toHaveLength(5);
  });

  it('the printed scope in the profile, without --partial: the same verdict from the profile; a declared operation that answers 404 fails', async () => {
    serve = await startServe('5eed0048');
    const base = JSON.parse(readFileSync(serve.profilePath, 'utf8')) as Record<string, unknown>;
    const snippet = printedSnippet(partial.stdout) as { scope: { implements: string[] } };
    const pinned = join(serve.dir, 'pinned.target.json');
    writeFileSync(pinned, JSON.stringify({ ...base, openapi: REAL_DESCRIPTION, ...snippet }));
    const fromProfile = await run('pinned', ['--profile', pinned, '--only', 'OPS-*']);
    expect(fromProfile.code, fromProfile.stdout.slice(-3000)).toBe(0);
    expect(fromProfile.stdout).toMatch(/conformant for 5 of 39 operations; 34 not implemented \(the profile's "scope"\)/);
    const report = readReport(fromProfile.out);
    expect(report.scope?.sources).toEqual(['profile']);
    // Left out before any call: no result names them.
    expect(report.results.some((r) => r.operation?.path === '/api/v1/webhooks')).toBe(false);

    const declared = join(serve.dir, 'declared.target.json');
    writeFileSync(declared, JSON.stringify({ ...base, openapi: REAL_DESCRIPTION, scope: { implements: [...snippet.scope.implements, 'GET /api/v1/webhooks'] } }));
    const failing = await run('declared', ['--profile', declared, '--only', 'OPS-*', '--partial']);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/^✗ OPS-18@GET \/api\/v1\/webhooks \[MUST\]/m);

    const typo = join(serve.dir, 'typo.target.json');
    writeFileSync(typo, JSON.stringify({ ...base, openapi: REAL_DESCRIPTION, scope: { excludes: ['GET /api/v1/webhook'] } }));
    const refused = await run('typo', ['--profile', typo, '--only', 'OPS-18']);
    expect(refused.code).toBe(2);
    expect(refused.stdout + refused.stderr).toContain('error[PROFILE_INVALID]: scope.excludes[0] "GET /api/v1/webhook" names no operation');
  }, 300_000);

  it('--attest: the statement lists the 34 and is WARNED, never PASSED; verify names the scope and what it did not check', async () => {
    const ed = await keyPair('ed25519');
    writeFileSync(join(dir, 'ed.pem'), ed.privatePem);
    writeFileSync(join(dir, 'ed.pub.pem'), ed.publicPem);
    const attested = await run('attested', [...real, '--partial', '--attest', '--signing-key', join(dir, 'ed.pem')]);
    expect(attested.code, attested.stderr).toBe(0);
    const bundleFile = join(attested.out, 'attestation.sigstore.json');
    const statement = statementOf(JSON.parse(readFileSync(bundleFile, 'utf8')) as SerializedBundle) as unknown as {
      predicate: { result: string; accessConformance: { scope?: { summary: string; sources: string[]; notImplemented: Array<{ operation: string }> } } };
    };
    expect(statement.predicate.result).toBe('WARNED');
    const scope = statement.predicate.accessConformance.scope!;
    expect(scope.sources).toEqual(['--partial']);
    expect(scope.notImplemented.map((entry) => entry.operation).sort()).toEqual(readReport(attested.out).scope!.notImplemented.map((e) => `${e.operation.method} ${e.operation.path}`).sort());
    expect(scope.notImplemented).toHaveLength(34);
    const verified = await runCli(['verify', bundleFile, '--key', join(dir, 'ed.pub.pem'), '--report', join(attested.out, 'report.json')], { timeoutMs: 30_000 });
    expect(verified.code, verified.stdout).toBe(0);
    const last = verified.stdout.trimEnd().split('\n').at(-1)!;
    expect(last).toMatch(/^signature and report valid \(signed by key [0-9a-f]+\); subject not checked: give --subject; scope: 5 of 39 operations implemented and checked; 34 not implemented \(run --partial\), a certificate of those operations only$/);
  }, 300_000);
});

describe('a full implementation (the embedded default, its own operations)', () => {
  it('--partial changes nothing: the same results, exit 0, no scope', async () => {
    const [plain, partial] = [await run('full', ['--seed', '5eed0049']), await run('full-partial', ['--seed', '5eed0049', '--partial'])];
    expect(plain.code, plain.stdout.slice(-2000)).toBe(0);
    expect(partial.code, partial.stdout.slice(-2000)).toBe(0);
    const [a, b] = [readReport(plain.out), readReport(partial.out)];
    expect(b.results.map((r) => `${r.id} ${r.state}`)).toEqual(a.results.map((r) => `${r.id} ${r.state}`));
    expect(b.results.length).toBeGreaterThan(300);
    expect(b.scope).toBeUndefined();
    expect(b.verdict).toEqual(a.verdict);
    expect(partial.stdout).not.toContain('SCOPE');
  }, 300_000);
});
