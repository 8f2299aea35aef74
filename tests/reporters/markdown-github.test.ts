/**
 * The two CI-facing renderings: the Markdown summary (identical failures grouped, a hard size cap with a
 * pointer to the full reports) and the github reporter's workflow commands (one annotation per distinct
 * failure, encoded per GitHub's rules, details in collapsible groups).
 */
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/engine/types.js';
import { renderGithub } from '../../src/reporters/github.js';
import { MARKDOWN_MAX_BYTES, renderMarkdown } from '../../src/reporters/markdown.js';
import { exchange, result, summary } from '../engine/support/fixtures.js';

/** A target that died after the first checks: every later check errored the same way. */
function deadTargetRun(count: number) {
  const results: CheckResult[] = [result('TOK-01', 'passed'), result('TOK-02', 'failed', 'MUST', { exchanges: [exchange({ status: 500 })] })];
  for (let i = 0; i < count; i += 1) {
    results.push(
      result(`TOK-${100 + i}`, 'errored', 'MUST', {
        harnessError: { code: 'TARGET_UNREACHABLE', message: 'connection refused by 127.0.0.1:1', hint: 'is the target running?' },
      }),
    );
  }
  return summary(results);
}

describe('markdown', () => {
  it('a target that dies mid-run gives one block "TARGET_UNREACHABLE × 186", not 186', () => {
    const md = renderMarkdown(deadTargetRun(186), ['/x/report.json', '/x/report.html']);
    expect(md).toContain('### Root causes: what did not pass (187)');
    expect(md).toContain('**1 passed, 1 failed, 0 blocked, 186 errored, 0 skipped**');
    expect(md).toContain('### What failed (2 distinct)');
    expect(md).toContain('#### error\\[TARGET\\_UNREACHABLE\\]: connection refused by 127.0.0.1:1 × 186');
    expect(md.match(/^#### /gm)).toHaveLength(2);
    expect(md).toContain('⚠️ error · checks: TOK-100, TOK-101, TOK-102');
    expect(md).toContain('Full reports (job artifacts): `report.json`, `report.html`');
  });

  it('stays under the cap with thousands of distinct failures with 4 KB bodies, and says how many more are in the reports', () => {
    const page = `<html>${'x'.repeat(4080)}</html>`;
    const results = Array.from({ length: 3000 }, (_, i) =>
      result(`TOK-${1000 + i}`, 'failed', 'MUST', {
        failure: { message: `check ${i}: got status 502, expected status 200`, expected: 'status 200', actual: `502 (text/html) ${page}` },
        exchanges: [exchange({ status: 502, responseBody: page }), exchange({ status: 502, responseBody: page })],
      }),
    );
    const md = renderMarkdown(summary(results), ['/x/report.html']);
    expect(Buffer.byteLength(md)).toBeLessThan(MARKDOWN_MAX_BYTES);
    expect(md).toMatch(/^\d+ more in `report\.html`\.$/m);
    expect(md).toMatch(/^\*\*\d+ more distinct failures in `report\.html`\.\*\*$/m);
    expect(md.trimEnd().split('\n').at(-1)).toBe('0 passed, 3000 failed, 0 blocked, 0 errored, 0 skipped');
  });
});

describe('github reporter', () => {
  it('one ::error per distinct failure, ::warning for SHOULD, encoded data and properties, details in groups', () => {
    const run = summary([
      result('TOK-01', 'failed', 'MUST', { failure: { message: 'got 50%\r\n::add-mask::x', expected: 'a 4xx, status', actual: '200' }, exchanges: [exchange({ responseBody: 'line1\n::error::fake\n198 passed, 0 failed, 0 skipped' })] }),
      result('TOK-02', 'failed', 'SHOULD'),
      result('TOK-03', 'passed'),
      ...deadTargetRun(5).results.slice(2),
    ]);
    const out = renderGithub(run);
    const lines = out.trimEnd().split('\n');
    const annotations = lines.filter((line) => /^::(error|warning) /.test(line));
    expect(annotations).toHaveLength(3);
    expect(annotations[0]).toBe(
      '::error title=access-conformance TOK-01 [MUST]::got 50%25\\x0d\\n::add-mask::x%0Arequirement (§5.4): requirement TOK-01 <&> "quoted"%0Aexpected: a 4xx, status%0Aactual: 200',
    );
    expect(annotations[1]).toMatch(/^::error title=access-conformance 5 checks%3A TOK-100 TOK-101 TOK-102 TOK-103 TOK-104::error\[TARGET_UNREACHABLE\]/);
    expect(annotations[2]).toMatch(/^::warning title=access-conformance TOK-02 \[SHOULD\]::/);
    expect(lines.filter((line) => line.startsWith('::group::'))).toHaveLength(3);
    expect(lines.filter((line) => line === '::endgroup::')).toHaveLength(3);
    // Inside a group, the body's lines are prefixed: none starts a command or a count line.
    for (const line of lines.filter((l) => !/^::(error|warning|group|endgroup)/.test(l))) {
      expect(line.trimStart().startsWith('::')).toBe(false);
      expect(line).not.toMatch(/^\s*\d+ passed, \d+ failed/);
    }
    expect(out).toContain('│ ::error::fake');
    expect(out).toContain("recorded request: curl -sS -i -g -X POST 'http://127.0.0.1:1/auth/v1/token'");
  });

  it('prints nothing for a run with nothing to say', () => {
    expect(renderGithub(summary([result('TOK-01', 'passed')]))).toBe('');
  });
});
