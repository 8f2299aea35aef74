/**
 * Root cause first, end to end (issue 21): one defect of a faulty reference, run through the CLI, shows as
 * ONE root cause at the top of the console, the Markdown summary and the HTML report, with the number of
 * checks that depend on it, and the dependants one indented list or one click away. The HMAC keyed with the
 * decoded secret shows WH-01 with WH-HMAC-08 (the rule it applies instead) beside it; a token endpoint
 * without the basic method shows TOK-01; a list without `nextPageToken` shows PAGE-27.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHostile } from '../hostile/support.js';

const CASES = [
  { fault: 'hmac-decoded-key', root: 'WH-01', beside: 'WH-HMAC-08', atLeast: 50 },
  { fault: 'basic-grant-unsupported', root: 'TOK-01', beside: undefined, atLeast: 20 },
  { fault: 'page-next-token-snake-case', root: 'PAGE-27', beside: undefined, atLeast: 10 },
] as const;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-root-cause-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each(CASES)('run --fault $fault', ({ fault, root, beside, atLeast }) => {
  let stdout: string;
  let code: number | null;
  let out: string;

  beforeAll(async () => {
    out = join(dir, fault);
    const run = await runHostile(['run', '--fault', fault, '--out', out, '--reporter', 'json,markdown,html'], { timeoutMs: 120_000 });
    ({ stdout, code } = run);
  }, 150_000);

  it(`console: the first failure is ${root}, with the count of its dependants, then those one per indented line`, () => {
    expect(code).toBe(1);
    const lines = stdout.split('\n');
    const start = lines.findIndex((line) => /^FAILURES \(\d+(?:\)|; \d+ listed here, the others under the check they follow from\))$/.test(line));
    expect(start, stdout.slice(0, 3000)).toBeGreaterThan(0);
    expect(lines[start + 2]).toMatch(new RegExp(`^✗ ${root} \\[MUST\\]`));
    const block = lines.slice(start + 2, start + 8).join('\n');
    const count = Number(/(\d+) checks depend on it/.exec(block)?.[1]);
    expect(count).toBeGreaterThanOrEqual(atLeast);
    if (beside) expect(block).toMatch(new RegExp(`accepts instead what it must refuse: ${beside} `));
    // The dependants: one indented line each, under "N checks depend on it:".
    const listAt = lines.findIndex((line, i) => i > start && line === `    ${count} checks depend on it:`);
    expect(listAt).toBeGreaterThan(start);
    expect(lines[listAt + 1]).toMatch(/^ {6}[A-Z]+-[A-Z0-9-]+ \[(MUST|SHOULD)\] (failed|blocked|errored)/);
  });

  it(`markdown: the first row of the failed checks is ${root}, saying how many depend on it`, async () => {
    const md = await readFile(join(out, 'summary.md'), 'utf8');
    const rows = md.split('\n').filter((line) => /^\| [A-Z]+-[A-Z0-9-]+ \|/.test(line));
    expect(rows[0]).toMatch(new RegExp(`^\\| ${root} \\| MUST \\| ❌ failed \\|.*\\*\\*\\(\\d+ checks depend on it`));
    if (beside) expect(rows[0]).toContain(beside);
    const firstBlock = md.slice(md.indexOf('### What failed'));
    expect(firstBlock).toMatch(new RegExp(`#### ${root}:`));
    expect(firstBlock).toMatch(/<details><summary>\d+ dependant checks<\/summary>/);
  });

  it(`html: the first check shown is ${root}, its dependants one click away`, async () => {
    const html = await readFile(join(out, 'report.html'), 'utf8');
    const first = /<details class="check s-(\w+)" id="([^"]+)"/.exec(html);
    expect(first?.slice(1)).toEqual(['failed', root]);
    const row = html.slice(first!.index, html.indexOf('</details></details>', first!.index));
    expect(row).toMatch(/<span class="deps">\d+ checks depend on it/);
    expect(row).toContain('<details class="dependants">');
    if (beside) expect(row).toContain(`${beside} (`);
  });

  it('json: the root cause leads, and every dependant carries its edge', async () => {
    const json = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as {
      rootCauses: Array<{ id: string; dependants: string[]; acceptedInstead: string[] }>;
      results: Array<{ id: string; operation?: { method: string; path: string }; state: string; dependsOn?: string; rootCause?: string }>;
    };
    expect(json.rootCauses[0]!.id).toBe(root);
    expect(json.rootCauses[0]!.dependants.length).toBeGreaterThanOrEqual(atLeast);
    if (beside) expect(json.rootCauses[0]!.acceptedInstead).toContain(beside);
    for (const id of json.rootCauses[0]!.dependants) {
      // A per-operation result is named by its key, ID@METHOD path (src/engine/result-key.ts).
      const result = json.results.find((r) => (r.operation ? `${r.id}@${r.operation.method} ${r.operation.path}` : r.id) === id)!;
      expect(result.rootCause, id).toBe(root);
      expect(result.dependsOn, id).toBeDefined();
    }
  });
});
