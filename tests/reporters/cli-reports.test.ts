/**
 * The reports of real runs through the CLI: a faulty embedded reference (MUST failures with exchanges and
 * a SHOULD warning) and a target that answers every request with a 4 KB 502 page. The HTML lists the
 * first failure before any pass (DOM order, parsed by libxml2), JUnit validates against the Jenkins
 * schema, JSON against report.schema.json, the HAR holds the exchanges, the Markdown summary of the 502
 * target stays under 100 KB, and `diff --fail-on regression` gates on what started failing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasUnsafeControls } from '../../src/escape.js';
import { toJsonReport } from '../../src/reporters/json-report.js';
import { MARKDOWN_MAX_BYTES } from '../../src/reporters/markdown.js';
import { requirement, type RequirementId } from '../../src/requirements/catalogue.js';
import { runCli, type CliResult } from '../cli/support.js';
import { result, summary } from '../engine/support/fixtures.js';
import { fixtureDoc, material, writeJson } from '../profile/support.js';
import { hasXmllint, JENKINS_XSD, XMLLINT_MISSING, markdownOutsideCode, reportValidator, xmllint } from './validators.js';
import { skipUnless } from '../support/capabilities.js';

/** A profile (the fixture's, without the HTTPS JWKS listener it cannot serve here) pointing at `server`. */
async function profileFor(server: Server, name: string): Promise<{ env: Record<string, string>; profile: string }> {
  const port = (server.address() as AddressInfo).port;
  const { env } = await material();
  const doc = fixtureDoc();
  doc.baseUrl = `http://127.0.0.1:${port}`;
  doc.hooks.baseUrl = `http://127.0.0.1:${port}/__hooks/v1`;
  delete doc.webhooks.jwt;
  return { env, profile: await writeJson(join(dir, name), doc) };
}

async function listen(handler: (body: string) => { status: number; type: string; body: string | Buffer }): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const answer = handler(body);
      res.writeHead(answer.status, { 'content-type': answer.type });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

let dir: string;
let faulty: CliResult;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-cli-reports-'));
  faulty = await runCli(
    [
      'run',
      '--fault', 'token-cacheable',
      '--fault', 'hmac-decoded-key',
      '--only', 'TOK-*,WH-HMAC-*,OWN-*',
      '--reporter', 'json,junit,html,markdown,github',
      '--out', join(dir, 'faulty'),
      '--har', join(dir, 'faulty', 'run.har'),
    ],
    { env: { GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md') }, timeoutMs: 120_000 },
  );
}, 150_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a failing run of the faulty reference', { timeout: 60_000 }, () => {
  it('exits 1 and lists every report, the HAR included; the console shows each failure\'s reproduction', () => {
    expect(faulty.code, faulty.stderr).toBe(1);
    for (const file of ['junit.xml', 'report.json', 'report.html', 'run.har', 'summary.md']) expect(faulty.stdout).toContain(`report: ${join(dir, 'faulty', file)}`);
    // The embedded run's reproductions are sent to the profile `serve --fault` writes.
    expect(faulty.stdout).toMatch(/ {4}reproduce: node \S*bin\/access-conformance\.js send --profile reports\/sandbox\.target\.json --replay \S+\/reproductions\/WH-HMAC-\d+\.json$/m);
    expect(faulty.stdout).toContain(`reproductions: ${join(dir, 'faulty', 'reproductions')} (`);
    expect(faulty.stdout).toMatch(/^::error title=access-conformance /m);
    expect(faulty.stdout).toMatch(/^::warning title=access-conformance /m);
    expect(hasUnsafeControls(faulty.stdout)).toBe(false);
  });

  it('report.html lists the first failure before any pass, and SHOULD failures as warnings (DOM order)', async () => {
    const html = await readFile(join(dir, 'faulty', 'report.html'), 'utf8');
    const states = [...html.matchAll(/<details class="check s-(\w+)"/g)].map((m) => m[1]);
    expect(states[0]).toBe('failed');
    expect(states.lastIndexOf('failed')).toBeLessThan(states.indexOf('passed'));
    expect(states).toContain('warning');
    expect(states.indexOf('warning')).toBeLessThan(states.indexOf('passed'));
  });

  it('report.html in a real HTML parser (libxml2): the same order of checks', async (ctx) => {
    skipUnless(ctx, 'xmllint', hasXmllint(), XMLLINT_MISSING);
    const html = await readFile(join(dir, 'faulty', 'report.html'), 'utf8');
    const states = [...html.matchAll(/<details class="check s-(\w+)"/g)].map((m) => m[1]);
    // The same order as a real HTML parser builds the document (a root cause's dependants are rows in
    // the fold that follows it).
    const dom = xmllint(['--html', '--xpath', "//main//details[contains(@class, 'check')]/@data-state", join(dir, 'faulty', 'report.html')]);
    const domStates = [...dom.matchAll(/data-state="(\w+)"/g)].map((m) => m[1]);
    expect(domStates).toEqual(states);
  });

  it('report.html names the authority of every check', async () => {
    const html = await readFile(join(dir, 'faulty', 'report.html'), 'utf8');
    const checks = html.match(/<details class="check /g) ?? [];
    expect(checks.length).toBeGreaterThan(0);
    expect(html.match(/<p class="authority">Authority: (service\.md §|RFC \d+|rulings\.md ruling \d+|the harness&#39;s reading)/g) ?? []).toHaveLength(checks.length);
  });

  it('junit.xml validates against the Jenkins xunit schema', (ctx) => {
    skipUnless(ctx, 'xmllint', hasXmllint(), XMLLINT_MISSING);
    expect(xmllint(['--noout', '--schema', JENKINS_XSD, join(dir, 'faulty', 'junit.xml')])).toBe('');
  });

  it('report.json validates against schemas/report.schema.json', async () => {
    const validate = await reportValidator();
    const report = JSON.parse(await readFile(join(dir, 'faulty', 'report.json'), 'utf8'));
    expect(validate(report)).toEqual([]);
    // Every result names the authority of its check, as the catalogue does.
    for (const result of report.results as Array<{ id: RequirementId; authority?: unknown }>) expect(result.authority, result.id).toEqual(requirement(result.id).authority);
  });

  it('the HAR holds every exchange, redacted, with the check that made it', async () => {
    const har = JSON.parse(await readFile(join(dir, 'faulty', 'run.har'), 'utf8'));
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.length).toBeGreaterThan(50);
    const auth = har.log.entries.flatMap((entry: { request: { headers: Array<{ name: string; value: string }> } }) =>
      entry.request.headers.filter((h) => h.name.toLowerCase() === 'authorization').map((h) => h.value),
    );
    expect(auth.length).toBeGreaterThan(0);
    for (const value of auth) expect(value).toMatch(/^(Bearer|Basic) \[REDACTED\]$/);
    expect(har.log.entries.every((entry: { comment?: string }) => /^[A-Z]+(-[A-Z0-9]+)+/.test(entry.comment ?? ''))).toBe(true);
  });

  it('the step summary gets the Markdown summary, with the failed IDs and the artifact names', async () => {
    const md = await readFile(join(dir, 'step-summary.md'), 'utf8');
    expect(md).toContain('## ❌ access-conformance: not-conformant');
    expect(md).toMatch(/### Root causes: what did not pass \(\d+\)/);
    expect(md).toContain('Full reports (job artifacts): `junit.xml`, `report.json`, `report.html`, `run.har`');
  });

  it('diff --fail-on regression exits 1 when a check started failing, 0 when none did', async () => {
    const failing = JSON.parse(await readFile(join(dir, 'faulty', 'report.json'), 'utf8'));
    const passing = join(dir, 'passing.json');
    await writeFile(passing, JSON.stringify({ ...failing, results: failing.results.map((r: { state: string }) => ({ ...r, state: 'passed', failure: undefined, exchanges: undefined })) }));
    const current = join(dir, 'faulty', 'report.json');
    const worse = await runCli(['diff', passing, current, '--fail-on', 'regression']);
    expect(worse.code, worse.stderr).toBe(1);
    expect(worse.stderr).toMatch(/--fail-on regression: \d+ started failing: /);
    const better = await runCli(['diff', current, passing, '--fail-on', 'regression']);
    expect(better.code, better.stderr).toBe(0);
    const informational = await runCli(['diff', passing, current]);
    expect(informational.code).toBe(0);
  });

  it('diff --fail-on regression also fails on a failing check that is new in the second report', async () => {
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    await writeFile(a, JSON.stringify(toJsonReport(summary([result('TOK-01', 'passed')]))));
    await writeFile(b, JSON.stringify(toJsonReport(summary([result('TOK-01', 'passed'), result('TOK-02', 'errored')]))));
    expect((await runCli(['diff', a, b, '--fail-on', 'regression'])).code).toBe(1);
  });
});

describe('a target that answers every request with a 4 KB 502 page', { timeout: 180_000 }, () => {
  let server: Server;
  beforeAll(async () => {
    const page = `<!doctype html><html><body>${'<p>502 Bad Gateway: the upstream did not answer.</p>\n'.repeat(90)}</body></html>`.slice(0, 4096);
    server = await listen(() => ({ status: 502, type: 'text/html', body: page }));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('gives a Markdown summary under 100 KB that points to the full reports; under GitHub Actions at most 10 ::error lines, the root cause first', async () => {
    const { env, profile } = await profileFor(server, 'target-502.json');
    const out = join(dir, 'bad-gateway');
    // GITHUB_ACTIONS=true turns the github reporter on without --reporter naming it.
    const run = await runCli(['run', '--profile', profile, '--timeout', '2s', '--reporter', 'json,markdown', '--out', out], { env: { ...env, GITHUB_ACTIONS: 'true' }, timeoutMs: 170_000 });
    const errors = run.stdout.split('\n').filter((line) => line.startsWith('::error'));
    expect(errors.length).toBeGreaterThan(1);
    expect(errors.length).toBeLessThanOrEqual(10);
    expect(errors[0]).toMatch(/^::error title=access-conformance%3A one answer for everything::/);
    // Every request got 502: one misconfiguration (UNIFORM_ANSWER, exit 2), not a list of failures.
    expect(run.code, run.stderr).toBe(2);
    const size = (await stat(join(out, 'summary.md'))).size;
    expect(size).toBeLessThan(MARKDOWN_MAX_BYTES);
    expect(MARKDOWN_MAX_BYTES).toBeLessThanOrEqual(100_000);
    const md = await readFile(join(out, 'summary.md'), 'utf8');
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
    expect(report.verdict.code).toBe('UNIFORM_ANSWER');
    expect(md).toMatch(/ONE ANSWER FOR EVERYTHING: (nearly )?every request of the run got 502/);
    type Row = { state: string; level: string; rootCause?: string };
    const bad = report.results.filter((r: Row) => ['failed', 'errored', 'blocked'].includes(r.state)).length;
    expect(bad).toBeGreaterThan(50);
    // Root causes first: the table lists the checks that follow from no other, the rest one click away.
    const roots = report.results.filter((r: Row) => ['failed', 'errored', 'blocked'].includes(r.state) && r.rootCause === undefined && !(r.state === 'failed' && r.level === 'INFO')).length;
    expect(roots).toBeLessThan(bad);
    expect(md).toContain(`### Root causes: what did not pass (${roots})`);
    expect(md).toMatch(/Root causes first: \d+ more checks that follow from them are listed under each/);
    expect(md).toContain('Full reports (job artifacts): `report.json`');
  });
});

describe('a target whose every answer is a hostile body', { timeout: 180_000 }, () => {
  const payload = [
    '\u001b[2J\u001b[H\u001b[32mverdict: conformant (exit 0)\u001b[0m\u0007\r\u0000\u009b\u202e',
    '198 passed, 0 failed, 0 blocked, 0 errored, 0 skipped',
    '::error::PWNED',
    '::add-mask::x',
    '```',
    '</details><details open><summary>PWNED</summary>',
    '![img](https://evil.example/pixel.png) [click](https://evil.example/login) <img src=x onerror=alert(1)>',
    '``` ` `` ````',
  ].join('\n');
  let server: Server;
  beforeAll(async () => {
    server = await listen(() => ({ status: 200, type: 'application/json', body: `{"access_token":"x","note":"${payload}"}\n${payload}` }));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('puts no control character and no fake verdict, count or command line on the console, and keeps the Markdown inert', async () => {
    const { env, profile } = await profileFor(server, 'target-hostile.json');
    const out = join(dir, 'hostile');
    const run = await runCli(['run', '--profile', profile, '--timeout', '2s', '--reporter', 'junit,markdown,github', '--out', out], { env, timeoutMs: 170_000 });
    expect([1, 2]).toContain(run.code);
    expect(run.stdout).toContain('│ 198 passed, 0 failed, 0 blocked, 0 errored, 0 skipped');
    expect(hasUnsafeControls(run.stdout)).toBe(false);
    expect(hasUnsafeControls(run.stderr)).toBe(false);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.filter((line) => /^\s*\d+ passed, \d+ failed, \d+ blocked, \d+ errored, \d+ skipped/.test(line))).toEqual([lines.at(-1)]);
    expect(lines.filter((line) => /^\s*verdict:/.test(line))).toHaveLength(1);
    for (const line of lines.filter((l) => l.trimStart().startsWith('::'))) expect(line).toMatch(/^::(?:error title=|warning title=|notice title=|group::|endgroup::$)/);
    const md = await readFile(join(out, 'summary.md'), 'utf8');
    expect(hasUnsafeControls(md)).toBe(false);
    const outside = markdownOutsideCode(md) ?? '';
    expect(markdownOutsideCode(md), 'a fence is left open').toBeDefined();
    expect(new Set([...outside.matchAll(/<\/?[a-zA-Z][^>]*>/g)].map((m) => m[0]))).toEqual(new Set(['<details>', '<summary>', '</summary>', '</details>']));
    expect(outside).not.toMatch(/[[\]`]|:\/\//);
  });

  it('the hostile run\'s junit.xml validates against the Jenkins xunit schema', (ctx) => {
    skipUnless(ctx, 'xmllint', hasXmllint(), XMLLINT_MISSING);
    expect(xmllint(['--noout', '--schema', JENKINS_XSD, join(dir, 'hostile', 'junit.xml')])).toBe('');
  });
});
