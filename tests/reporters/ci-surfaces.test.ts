/**
 * What CI pages show of a run (issue 23): GitHub's annotation caps, github on by default under GitHub
 * Actions, the Markdown table with errored checks collapsed by code and catalogue code spans as code,
 * JUnit names "ID: sentence" with ID, level and section, the HTML's anchor margin and collapsed
 * got/expected, each failure's rerun line, and a reused --out cleared of an earlier run's reports.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/engine/types.js';
import { MAX_ERROR_ANNOTATIONS, renderGithub } from '../../src/reporters/github.js';
import { renderHtml } from '../../src/reporters/html.js';
import { renderJunit, testCaseName } from '../../src/reporters/junit.js';
import { MARKDOWN_MAX_BYTES, renderMarkdown } from '../../src/reporters/markdown.js';
import { mdCatalogueText } from '../../src/reporters/markdown-rows.js';
import { implicitReporters } from '../../src/reporters/names.js';
import { removePreviousOutputs } from '../../src/reporters/out-dir.js';
import { rerunCommand, type RunInvocation } from '../../src/reporters/rerun.js';
import { exchange, result, summary } from '../engine/support/fixtures.js';

const PROFILE: RunInvocation = { kind: 'profile', path: 'deploy/target.json' };

function distinctFailures(count: number, level: CheckResult['level'] = 'MUST'): CheckResult[] {
  return Array.from({ length: count }, (_, i) =>
    result(`TOK-${(level === 'MUST' ? 100 : 500) + i}`, 'failed', level, { failure: { message: `failure ${level} ${i}`, expected: 'status 401', actual: `${200 + i}` } }),
  );
}

describe('github annotations', () => {
  it("stay within GitHub's 10 errors and 10 warnings, with a notice for the rest", () => {
    const out = renderGithub(summary([...distinctFailures(15), ...distinctFailures(12, 'SHOULD')]));
    const lines = out.split('\n');
    expect(lines.filter((line) => line.startsWith('::error ')).length).toBe(MAX_ERROR_ANNOTATIONS);
    expect(lines.filter((line) => line.startsWith('::warning ')).length).toBe(10);
    const notices = lines.filter((line) => line.startsWith('::notice '));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('5 more failures and 2 more warnings (7 checks)');
    // The first error is the first failure of the groups' order.
    expect(lines.find((line) => line.startsWith('::error '))).toContain('TOK-100');
  });

  it('are on by default under GITHUB_ACTIONS=true only', () => {
    expect(implicitReporters({ GITHUB_ACTIONS: 'true' })).toEqual(['github']);
    expect(implicitReporters({})).toEqual([]);
  });

  it("carry each failure's rerun line", () => {
    const out = renderGithub(summary(distinctFailures(1)), PROFILE);
    expect(out).toContain('  rerun: access-conformance run --profile deploy/target.json --only TOK-100 --seed ');
  });
});

describe('rerun line', () => {
  it('reruns one check against the same target with the same seed, quoting what a shell would split', () => {
    expect(rerunCommand(PROFILE, { seed: 's1', strict: false }, 'WH-HMAC-08')).toBe('access-conformance run --profile deploy/target.json --only WH-HMAC-08 --seed s1');
    expect(rerunCommand({ kind: 'embedded', faults: ['hmac-decoded-key'] }, { seed: 'a b', strict: true }, 'X-1')).toBe(
      "access-conformance run --fault hmac-decoded-key --only X-1 --seed 'a b' --strict",
    );
    expect(rerunCommand({ kind: 'profile', path: 'my dir/t.json' }, { seed: 's', strict: false }, 'X-1')).toContain("--profile 'my dir/t.json'");
  });
});

describe('markdown', () => {
  it('collapses errored checks by code in the failed-checks table and stays far under 100 KB for 281 of them', () => {
    const results = Array.from({ length: 281 }, (_, i) =>
      result(`TOK-${100 + i}`, 'errored', 'MUST', { harnessError: { code: 'TARGET_UNREACHABLE', message: 'connection refused by 127.0.0.1:1' } }),
    );
    const md = renderMarkdown(summary(results), ['/x/report.json'], PROFILE);
    const rows = md.split('\n').filter((line) => line.startsWith('| ') && line.includes('⚠️ error'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^\| 281 checks: TOK-100, TOK-101, .* and 273 more \| MUST \| ⚠️ error \| error\\\[TARGET\\_UNREACHABLE\\\]: `connection refused by 127\.0\.0\.1:1` \|$/);
    expect(Buffer.byteLength(md)).toBeLessThan(20_000);
    expect(Buffer.byteLength(md)).toBeLessThan(MARKDOWN_MAX_BYTES);
    expect(md).toContain('access-conformance run --profile deploy/target.json --only TOK-100 --seed');
  });

  it('renders catalogue code spans as code, and escapes the rest', () => {
    expect(mdCatalogueText('Answers 401 without a `WWW-Authenticate: Bearer` challenge *now*')).toBe('Answers 401 without a `WWW-Authenticate: Bearer` challenge \\*now\\*');
    expect(mdCatalogueText('`a|b` and `<c>`')).toBe('`a\\|b` and `<c>`');
    const md = renderMarkdown(summary([result('TOK-01', 'failed', 'MUST', { text: 'Sends `Webhook-Timestamp` as seconds' })]));
    expect(md).toContain('Sends `Webhook-Timestamp` as seconds');
    expect(md).not.toContain('\\`Webhook-Timestamp\\`');
  });
});

describe('junit', () => {
  it('names each test "ID: sentence" and opens its output with ID, level and section; a failure carries its rerun line', () => {
    const failed = result('TOK-01', 'failed', 'MUST', { text: 'Tokens expire', exchanges: [exchange()] });
    const xml = renderJunit(summary([failed, result('TOK-02', 'passed', 'SHOULD', { text: 'Say why' })]), PROFILE);
    expect(testCaseName(failed)).toBe('TOK-01: Tokens expire');
    expect(xml).toContain('<testcase name="TOK-01: Tokens expire"');
    expect(xml).toContain('<testcase name="TOK-02: Say why"');
    expect(xml).toMatch(/<system-out>id: TOK-02\nlevel: SHOULD\nsection: [^\n]+\n/);
    expect(xml).toContain('rerun: access-conformance run --profile deploy/target.json --only TOK-01 --seed');
  });
});

describe('html', () => {
  it('keeps an anchored check below the sticky bar and shows got/expected on a collapsed row', () => {
    const html = renderHtml(summary([result('TOK-01', 'failed', 'MUST', { failure: { message: 'm', expected: 'status 401', actual: '200 (application/json) {}' } })]), PROFILE);
    expect(html).toMatch(/details\.check \{ scroll-margin-top: \d+px; \}/);
    expect(html).toContain('<span class="gotexp">expected status 401 · got 200 (application/json) {}</span></summary>');
    expect(html).toContain('access-conformance run --profile deploy/target.json --only TOK-01 --seed');
  });
});

describe('a reused --out', () => {
  it("loses an earlier run's reports and keeps every other file", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-out-'));
    try {
      for (const name of ['report.json', 'junit.xml', 'summary.md', 'notes.txt']) await writeFile(join(dir, name), 'old');
      await mkdir(join(dir, 'keep'));
      expect(await removePreviousOutputs(dir)).toEqual(['report.json', 'junit.xml', 'summary.md']);
      expect(existsSync(join(dir, 'junit.xml'))).toBe(false);
      expect(existsSync(join(dir, 'notes.txt'))).toBe(true);
      expect(existsSync(join(dir, 'keep'))).toBe(true);
      expect(await removePreviousOutputs(join(dir, 'missing'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
