/**
 * Every reporter on a synthetic run: the shapes they promise (console sections and last line, junit
 * elements, json certificate, self-contained html, markdown step summary) and the final redaction: secrets
 * planted raw into failures and exchanges never reach any output.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRedact, createReporters, createScrub, type ReporterContext } from '../../src/reporters/index.js';
import { toJsonReport } from '../../src/reporters/json-report.js';
import { exchange, result, summary } from '../engine/support/fixtures.js';

const CLIENT_SECRET = 'secret-token:svc.example:v1:eyJrdHkiOiJPS1AiLCJjcnYiOiJFZDI1NTE5IiwiZCI6IkFBQUEifQ';
const HMAC_SECRET = 'hmac-secret-Zq81xY0pL2mN4vB7cT9w';
const HOOK_TOKEN = 'hook-token-0a9b8c7d6e5f';
const SECRETS = [CLIENT_SECRET, HMAC_SECRET, HOOK_TOKEN];

function shapes(secret: string): string[] {
  const b64 = Buffer.from(secret).toString('base64');
  return [secret, b64, b64.replace(/=+$/, ''), b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''), encodeURIComponent(secret)];
}

/** A run whose failures carry the secrets raw, as if a check forgot to redact. */
function leakySummary() {
  const leaky = exchange({
    requestBody: `grant_type=client_credentials&client_secret=${encodeURIComponent(CLIENT_SECRET)}`,
    responseBody: `{"echo":"${HMAC_SECRET}","basic":"${Buffer.from(HOOK_TOKEN).toString('base64')}","html":"</script><script>alert(1)</script>"}`,
    authorization: `Bearer ${HOOK_TOKEN}`,
    status: 200,
  });
  return summary([
    result('TOK-01', 'passed', 'MUST', { exchanges: [leaky] }),
    result('TOK-02', 'failed', 'MUST', { exchanges: [leaky], failure: { message: `refusal expected for ${CLIENT_SECRET}`, expected: 'a 4xx status', actual: `200 ${HMAC_SECRET}` } }),
    result('TOK-26', 'failed', 'SHOULD', { observations: [`note with ${HOOK_TOKEN}`] }),
    result('WH-HMAC-01', 'skipped'),
    result('WH-HMAC-02', 'errored'),
    result('TOK-04', 'failed', 'INFO'),
  ]);
}

let dir: string;
let stdout: string;
let ctx: ReporterContext;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-reporters-'));
  stdout = '';
  ctx = {
    outDir: join(dir, 'out'),
    stdout: { write: (text) => void (stdout += text) },
    env: { GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md') },
    redact: createRedact({ secrets: SECRETS }),
    scrub: createScrub({ secrets: SECRETS }),
    artifacts: [],
  };
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function runReporters(names: string[], run = leakySummary()): Promise<Map<string, string>> {
  const reporters = createReporters(names, ctx);
  for (const reporter of reporters) await reporter.onRunStart?.(run.header);
  for (const reporter of reporters) await reporter.onGroupEnd?.({ group: 'tokens', phase: 'main', checks: 5, counts: { passed: 1, failed: 3, skipped: 0, errored: 0, blocked: 0 }, durationMs: 10 });
  for (const reporter of reporters) await reporter.onRunEnd?.(run);
  const files = new Map<string, string>();
  for (const name of await readdir(ctx.outDir).catch(() => [] as string[])) files.set(name, await readFile(join(ctx.outDir, name), 'utf8'));
  return files;
}

describe('reporters', () => {
  it('no planted secret, in any encoding, reaches the console, the github annotations, a report file or the HAR', async () => {
    ctx.harPath = join(ctx.outDir, 'run.har');
    const files = await runReporters(['json', 'junit', 'html', 'markdown', 'github']);
    expect([...files.keys()].sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'run.har', 'summary.md']);
    expect(stdout).toMatch(/^::error title=/m);
    const outputs = new Map([...files, ['console', stdout], ['step summary', await readFile(ctx.env.GITHUB_STEP_SUMMARY!, 'utf8')]]);
    for (const [name, text] of outputs) {
      expect(text.length, name).toBeGreaterThan(100);
      for (const secret of SECRETS) for (const shape of shapes(secret)) expect(text.includes(shape), `${name} holds a secret shape`).toBe(false);
      expect(text, name).toContain('[REDACTED]');
    }
  });

  it('console: header, progress, failures with expected/actual and exchanges, warnings, errors, skips by reason, last line', async () => {
    await runReporters(['json']);
    expect(stdout).toContain('seed      seed-1');
    expect(stdout).toMatch(/ {2}tokens \.+ 1 passed, 3 failed, 0 skipped/);
    expect(stdout).toContain('FAILURES (1)');
    expect(stdout).toContain('✗ TOK-02 [MUST]');
    expect(stdout).toContain('expected: a 4xx status');
    expect(stdout).toContain('→ POST http://127.0.0.1:1/auth/v1/token');
    expect(stdout).toContain('WARNINGS');
    expect(stdout).toContain('TOK-26');
    expect(stdout).toContain('error[TIMEOUT]');
    expect(stdout).toContain('OBSERVATIONS (INFO');
    expect(stdout).toContain('1 × profile has no webhooks.jwt: WH-HMAC-01');
    expect(stdout).toContain(`report: ${join(ctx.outDir, 'report.json')}`);
    // One bucket each (engine/counts.ts): the SHOULD failure is a warning, the INFO one an observation.
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed, 0 blocked, 1 errored, 1 skipped, 1 warning (SHOULD), 1 observation (INFO)');
    expect(stdout).toMatch(/^FAILURES \(1\)$/m);
  });

  it('console: past 25 failures in full, one line each, so a target that fails everything does not flood the log', async () => {
    const many = summary(Array.from({ length: 40 }, (_, i) => result(`TOK-${100 + i}`, 'failed', 'MUST', { exchanges: [exchange({ status: 502, responseBody: 'x'.repeat(4000) })] })));
    await runReporters([], many);
    expect(stdout.match(/^ {4}recorded request: curl/gm)).toHaveLength(25);
    expect(stdout).toContain('\n✗ TOK-125 [MUST] §5.4: TOK-125 got 200\n✗ TOK-126 [MUST] §5.4: TOK-126 got 200\n');
    expect(stdout).toContain('(15 failures above on one line each: their exchanges and reproductions are in the html, json and junit reports)');
    expect(stdout.length).toBeLessThan(100_000);
  });

  it('junit: a testsuite per group with properties, testcases named by ID, failure, error and skipped elements; warnings are skipped, not failures', async () => {
    const xml = (await runReporters(['junit'])).get('junit.xml')!;
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    // The SHOULD failure (a warning without --strict) counts as skipped, the INFO one passes.
    expect(xml).toMatch(/<testsuite name="tokens" tests="4" failures="1" errors="0" skipped="1"/);
    expect(xml).toMatch(/<testsuite name="webhook-hmac" tests="2" failures="0" errors="1" skipped="1"/);
    expect(xml).toContain('<failure type="MUST" message="refusal expected for [REDACTED]">');
    expect(xml).toContain('<error type="TIMEOUT" message="no answer in 10000 ms">');
    expect(xml).toContain('<skipped message="profile has no webhooks.jwt"/>');
    expect(xml).toMatch(/<testcase name="TOK-26: [^"]*" [^>]*>\n\s*<skipped message="warning">TOK-26 \[SHOULD\]/);
    // The name is "ID: sentence" (what CI test pages show); ID, level and section open system-out.
    expect(xml).toContain('<testcase name="TOK-01: requirement TOK-01 &lt;&amp;&gt; &quot;quoted&quot;" classname="access-conformance.tokens"');
    expect(xml).toContain('<system-out>id: TOK-01\nlevel: MUST\nsection: 5.4\nMUST §5.4: requirement TOK-01 &lt;&amp;&gt; &quot;quoted&quot;</system-out>');
    for (const [name, value] of [['seed', 'seed-1'], ['target', 'http://127.0.0.1:1'], ['profile', 'test profile'], ['tool.version', '0.1.0'], ['catalogue.version', '1.0.0']]) {
      expect(xml).toContain(`<property name="${name}" value="${value}"/>`);
    }
    expect(xml).toContain('recorded request: curl -sS -i -g -X POST &#39;http://127.0.0.1:1/auth/v1/token&#39; -H &#39;content-type: application/x-www-form-urlencoded&#39; -H &#39;authorization: Bearer &#39;&quot;$ACCESS_TOKEN&quot;');
    expect(xml).not.toMatch(/<failure type="SHOULD"/);
    // Balanced testcase elements: every opened one is closed.
    expect((xml.match(/<testcase /g) ?? []).length).toBe(6);
    expect((xml.match(/<\/testcase>|<testcase [^>]*\/>/g) ?? []).length).toBe(6);
  });

  it('json: the documented certificate shape', async () => {
    const report = JSON.parse((await runReporters(['json'])).get('report.json')!);
    expect(report).toMatchObject({
      format: 'access-conformance-report',
      formatVersion: 2,
      tool: { name: 'access-conformance', version: '0.1.0' },
      catalogueVersion: '1.0.0',
      profile: { name: 'test profile' },
      target: { baseUrl: 'http://127.0.0.1:1' },
      seed: 'seed-1',
      verdict: { status: 'not-conformant', exitCode: 1 },
      totals: { passed: 1, failed: 1, skipped: 1, errored: 1, warnings: 1, observations: 1, byLevel: { MUST: { passed: 1, failed: 1 }, SHOULD: { failed: 1 }, INFO: { failed: 1 } } },
    });
    const byId = Object.fromEntries(report.results.map((r: { id: string }) => [r.id, r]));
    expect(byId['TOK-01'].exchanges).toBeUndefined();
    expect(byId['TOK-02'].exchanges).toHaveLength(1);
    expect(byId['WH-HMAC-01']).toMatchObject({ state: 'skipped', reason: 'profile has no webhooks.jwt', group: 'webhook-hmac', section: '5.4' });
    expect(Object.keys(toJsonReport(leakySummary())).sort()).toEqual(
      ['capabilities', 'catalogueVersion', 'date', 'durationMs', 'format', 'formatVersion', 'harnessErrors', 'notes', 'profile', 'results', 'rootCauses', 'seed', 'selection', 'settings', 'strict', 'target', 'tool', 'totals', 'verdict', 'warnings'].sort(),
    );
  });

  it('html: one self-contained file with filters and their counts, failures first, anchors, rounded durations, no script injection', async () => {
    const html = (await runReporters(['html'])).get('report.html')!;
    expect(html).not.toMatch(/(?:src|href)=["']?(?:https?:)?\/\//);
    expect(html).not.toMatch(/<link /);
    for (const id of ['f-level', 'f-group', 'f-text']) expect(html).toContain(`id="${id}"`);
    expect(html).toMatch(/data-state="failed" checked> <span class="state s-failed">failed<\/span> \(1\)/);
    expect(html).toMatch(/data-state="warning" checked> <span class="state s-warning">warning<\/span> \(1\)/);
    // Rendered in reading order: the MUST failure, the error, the warning, the observation, then the rest.
    const order = [...html.matchAll(/<details class="check s-(\w+)" id="([^"]+)"/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(order).toEqual(['failed:TOK-02', 'errored:WH-HMAC-02', 'warning:TOK-26', 'observation:TOK-04', 'passed:TOK-01', 'skipped:WH-HMAC-01']);
    expect(html).toContain('<a class="id" href="#TOK-02">TOK-02</a>');
    expect(html).toContain('(12 ms)');
    expect(html).toContain('<pre class="curl">curl -sS -i -g');
    // The hostile body is text: escaped, and only the page's own script element exists.
    expect((html.match(/<script/g) ?? []).length).toBe(1);
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('markdown: verdict, failed-IDs table, grouped failures with a curl reproduction, written to the out dir and appended to GITHUB_STEP_SUMMARY', async () => {
    const md = (await runReporters(['json', 'markdown'])).get('summary.md')!;
    expect(md).toContain('## ❌ access-conformance: not-conformant');
    expect(md).toContain('| MUST | 1 | 1 | 0 | 1 | 1 |');
    expect(md).toContain('**1 passed, 1 failed, 0 blocked, 1 errored, 1 skipped, 1 warning (SHOULD), 1 observation (INFO)**');
    expect(md).toContain('### Root causes: what did not pass (3)');
    expect(md).toMatch(/\| TOK-02 \| MUST \| ❌ failed \| requirement TOK-02 &lt;&amp;&gt; \\"quoted\\"|\| TOK-02 \| MUST \| ❌ failed \| requirement TOK-02 &lt;&amp;&gt; "quoted" \|/);
    expect(md).toContain('| TOK-26 | SHOULD | 🟡 warning |');
    expect(md).toContain('#### TOK-02: refusal expected for \\[REDACTED\\]');
    expect(md).toContain('```sh\ncurl -sS -i -g');
    expect(md).toContain('Full reports (job artifacts): `report.json`');
    await runReporters(['markdown']);
    const appended = await readFile(ctx.env.GITHUB_STEP_SUMMARY!, 'utf8');
    expect(appended.split('## ❌ access-conformance').length - 1).toBe(2);
  });

  it('an unknown reporter name is a usage error', () => {
    expect(() => createReporters(['xml'], ctx)).toThrow(/unknown reporter "xml"/);
  });
});
