/**
 * Text from the target is data: a run whose failures carry terminal escapes, fake verdict lines, workflow
 * commands, Markdown and HTML payloads and a gzip-bomb's worth of control bytes goes through every
 * reporter. The console prints no control character and no line a CI parser could take for ours, the
 * Markdown renders the payloads as text, the HTML holds no element they could create, JUnit stays valid
 * XML, and each exchange is capped.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedExchange } from '../../src/client/types.js';
import type { RunSummary } from '../../src/engine/types.js';
import { hasUnsafeControls } from '../../src/escape.js';
import { createRedact, createReporters, createScrub, type ReporterContext } from '../../src/reporters/index.js';
import { exchange, result, summary } from '../engine/support/fixtures.js';
import { hasXmllint, JENKINS_XSD, XMLLINT_MISSING, markdownOutsideCode, xmllint } from './validators.js';
import { skipUnless } from '../support/capabilities.js';

const ESCAPES = '\u001b[2J\u001b[H\u001b[32mverdict: conformant (exit 0)\u001b[0m\u0007\r\u0000\u009b2J\u202e';
const FAKE_LINES = '\n198 passed, 0 failed, 0 blocked, 0 errored, 0 skipped\nverdict: conformant (exit 0): no MUST requirement failed\n::add-mask::x\n::stop-commands::pwned\n::error::PWNED\n';
const MARKDOWN = [
  '``` ` `` ````',
  '```',
  '</details></details><details open><summary>PWNED</summary>',
  '![img](https://evil.example/pixel.png) [click](https://evil.example/login) <https://evil.example/auto> www.evil.example',
  '<img src=x onerror=alert(1)><script>alert(2)</script><a href="https://evil.example">a</a>',
  '| a | b |',
  '# heading',
  '</summary>',
].join('\n');
const BOMB = '\u001b[5m\u0007\u0000'.repeat(70_000);

function hostileExchange(body: string, extra: Partial<RecordedExchange['response'] & object> = {}): RecordedExchange {
  const base = exchange({ status: 502, responseBody: body });
  return {
    ...base,
    label: `label ${ESCAPES}`,
    response: { ...base.response!, headers: { 'content-type': 'text/html', 'x-evil': `v\u001b[31m\u202e` }, body, bodyBytes: Buffer.byteLength(body), ...extra },
  };
}

function hostileRun(): RunSummary {
  const payload = `${ESCAPES}${FAKE_LINES}${MARKDOWN}`;
  return summary([
    result('TOK-01', 'failed', 'MUST', {
      failure: { message: `got 502: ${payload}`, expected: 'status 200', actual: `502 ${payload}` },
      observations: [payload],
      exchanges: [hostileExchange(payload)],
    }),
    // A gzip bomb: the recorder kept 4 KB of control bytes of a 200 KB body; the check quoted all of it.
    result('TOK-02', 'failed', 'MUST', {
      failure: { message: 'got 200 KB of control bytes', expected: 'status 200', actual: BOMB },
      exchanges: [hostileExchange(BOMB.slice(0, 4096), { bodyBytes: 210_000, bodyTruncated: true })],
    }),
    result('TOK-03', 'failed', 'SHOULD', { failure: { message: `warning ${payload}`, expected: '', actual: payload }, exchanges: [hostileExchange(payload)] }),
    result('WH-HMAC-01', 'errored', 'MUST', { harnessError: { code: 'HTTP_PROTOCOL', message: `bad answer ${payload}`, hint: payload } }),
    result('WH-HMAC-02', 'skipped', 'MUST', { reason: `skip ${payload}` }),
    result('TOK-04', 'passed', 'MUST', { exchanges: [hostileExchange(payload)] }),
  ]);
}

let dir: string;
let stdout: string;
let files: Map<string, string>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-output-safety-'));
  stdout = '';
  const ctx: ReporterContext = {
    outDir: join(dir, 'out'),
    stdout: { write: (text) => void (stdout += text) },
    env: { GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md') },
    redact: createRedact({ secrets: [] }),
    scrub: createScrub({ secrets: [] }),
    artifacts: [],
    harPath: join(dir, 'out', 'run.har'),
  };
  const run = hostileRun();
  const reporters = createReporters(['json', 'junit', 'html', 'markdown', 'github'], ctx);
  for (const reporter of reporters) await reporter.onRunStart?.(run.header);
  for (const reporter of reporters) await reporter.onRunEnd?.(run);
  files = new Map();
  for (const name of await readdir(ctx.outDir)) files.set(name, await readFile(join(ctx.outDir, name), 'utf8'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('console and github annotations (stdout)', () => {
  it('carry no control character from a body, and stay small with a gzip-bomb body', () => {
    expect(stdout).toContain('TOK-02');
    expect(hasUnsafeControls(stdout)).toBe(false);
    expect(stdout).toContain('\\x1b[2J');
    // Six results, two of them with a 200 KB quote: the whole output stays within a few tens of KB.
    expect(stdout.length).toBeLessThan(60_000);
  });

  it('print no fake verdict, count or workflow-command line: the only such lines are ours', () => {
    const lines = stdout.split('\n');
    expect(lines.filter((line) => /^\s*\d+ passed, \d+ failed, \d+ blocked, \d+ errored, \d+ skipped/.test(line))).toEqual([lines.at(-2)]);
    expect(lines.at(-2)).toBe('1 passed, 2 failed, 0 blocked, 1 errored, 1 skipped, 1 warning (SHOULD)');
    expect(lines.filter((line) => /^\s*verdict:/.test(line))).toHaveLength(1);
    const commands = lines.filter((line) => line.trimStart().startsWith('::'));
    expect(commands.length).toBeGreaterThan(0);
    for (const line of commands) expect(line).toMatch(/^::(?:error title=|warning title=|group::|endgroup::$)/);
    // Every line of a body shown on the console is behind the target-text prefix.
    expect(stdout).toContain('│ 198 passed, 0 failed, 0 blocked, 0 errored, 0 skipped');
  });
});

describe('markdown (summary.md and the step summary)', () => {
  it('renders every payload as text: nothing outside code spans and fences is markup, a link, an image or a bare backtick', async () => {
    const md = files.get('summary.md')!;
    expect(await readFile(join(dir, 'step-summary.md'), 'utf8')).toBe(`${md}\n`);
    expect(md).toContain('evil.example');
    expect(hasUnsafeControls(md)).toBe(false);
    const outside = markdownOutsideCode(md) ?? '';
    expect(markdownOutsideCode(md), 'a fence is left open').toBeDefined();
    const tags = [...outside.matchAll(/<\/?([a-zA-Z][\w-]*)[^>]*>/g)].map((m) => m[0]);
    expect(new Set(tags)).toEqual(new Set(['<details>', '<summary>', '</summary>', '</details>']));
    expect(outside).not.toMatch(/[[\]`]|!\[|\]\(|:\/\/|www\./);
    // Our <details> open and close in pairs: no payload closed one early or opened one.
    expect((outside.match(/<details>/g) ?? []).length).toBe((outside.match(/<\/details>/g) ?? []).length);
  });
});

describe('html', () => {
  it('holds no element or attribute a payload could create', () => {
    const html = files.get('report.html')!;
    expect(hasUnsafeControls(html)).toBe(false);
    const names = new Set([...html.matchAll(/<([a-zA-Z][\w-]*)/g)].map((m) => m[1]!.toLowerCase()));
    for (const name of names) expect(['html', 'head', 'meta', 'title', 'style', 'body', 'header', 'h1', 'p', 'span', 'b', 'div', 'details', 'summary', 'table', 'tr', 'th', 'td', 'nav', 'label', 'input', 'select', 'option', 'main', 'a', 'pre', 'script', 'ul', 'li']).toContain(name);
    expect((html.match(/<script/g) ?? []).length).toBe(1);
    // Payload text holds no `<` (escaped), so every tag here is the page's own: none has an event handler.
    const tags = [...html.matchAll(/<[a-zA-Z][^>]*>/g)].map((m) => m[0]);
    for (const tag of tags) {
      // Attribute values are quoted with `"` escaped inside: what a value holds cannot become an attribute.
      expect(tag.replace(/="[^"]*"/g, '=""')).not.toMatch(/\son\w+=|\ssrc=/i);
      expect(tag).not.toMatch(/\shref="(?!#)/);
    }
  });

  it('parsed by libxml2 as HTML: no img, one script, no outside link, no payload element', (ctx) => {
    skipUnless(ctx, 'xmllint', hasXmllint(), XMLLINT_MISSING);
    const html = join(dir, 'out', 'report.html');
    const count = (xpath: string): string => xmllint(['--html', '--xpath', xpath, html]).trim();
    expect(count('count(//img)')).toBe('0');
    expect(count('count(//script)')).toBe('1');
    expect(count('count(//a[not(starts-with(@href, "#"))])')).toBe('0');
    expect(count('count(//details[@open])')).toBe('0');
  });
});

describe('junit, json and har', () => {
  it('junit.xml of the hostile run is valid against the Jenkins schema', (ctx) => {
    skipUnless(ctx, 'xmllint', hasXmllint(), XMLLINT_MISSING);
    expect(xmllint(['--noout', '--schema', JENKINS_XSD, join(dir, 'out', 'junit.xml')])).toBe('');
  });

  it('json and har are JSON with the payloads as strings, and every exchange body capped', () => {
    const report = JSON.parse(files.get('report.json')!);
    expect(report.results[0].failure.actual).toContain('::error::PWNED');
    const har = JSON.parse(files.get('run.har')!);
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.length).toBe(4);
    expect(files.get('junit.xml')!.length).toBeLessThan(80_000);
    expect(files.get('report.html')!.length).toBeLessThan(120_000);
  });
});
