/**
 * One answer for everything (issue 21): against servers that answer every request (but GET /, so the
 * preflight passes) with 404, 502 or 401, no MUST or SHOULD check passes except those that make no request
 * (the profile's own formats, the credentials group); the first line after the console's header says what
 * every request got and what to check; every report leads with it; the exit code is 2 with the stable
 * code UNIFORM_ANSWER. The profile fills every optional section, so the refusal checks that need them run
 * (RUN-04's inactive automation, the expired and IP-restricted credentials, the restricted listener).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_REPORTERS, afterRoot, hostileProfile, hostileServer, readReports, runHostile, type HostileServer } from './support.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-uniform-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The fixture profile with every optional section the refusal checks need. */
async function fullProfile(at: string, url: string) {
  const { path, material } = await hostileProfile(at, url);
  const doc = JSON.parse(await readFile(path, 'utf8'));
  doc.credentials.ipRestricted.allowedCidrs = ['10.20.0.0/16'];
  doc.credentials.expired = { clientId: 'old-lynx-5512@tenant.example.com/conformance-old', clientSecret: { env: 'AC_TEST_CLIENT_SECRET' } };
  const hmac = (listenerId: string) => ({ listenerId, secret: { env: 'AC_TEST_HMAC_SECRET' } });
  doc.webhooks.hmacSecond = hmac('wh_hmac_2');
  doc.webhooks.inactive = hmac('wh_inactive');
  doc.webhooks.ipRestricted = { ...hmac('wh_ip'), allowedCidrs: ['10.20.0.0/16'] };
  doc.webhooks.jwtUnreachableJwks = { listenerId: 'wh_jwt_dead', signingKeys: { env: 'AC_TEST_JWT_KEYS' } };
  await writeFile(path, JSON.stringify(doc, null, 2));
  return { path, material };
}

/** The console's header: its lines up to the first blank line. */
function afterHeader(stdout: string): string[] {
  const lines = stdout.split('\n');
  return lines.slice(lines.indexOf('') + 1);
}

const CASES: Array<{ status: number; check: RegExp }> = [
  { status: 404, check: /base URL and its path prefix/ },
  { status: 502, check: /proxy or gateway in front/ },
  { status: 401, check: /credentials in the profile/ },
];

describe.each(CASES)('a server that answers $status to every request', ({ status, check }) => {
  let server: HostileServer;
  let run: Awaited<ReturnType<typeof runHostile>>;
  let out: string;

  beforeAll(async () => {
    server = await hostileServer(afterRoot((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end('{"error":"no"}')));
    const at = await mkdtemp(join(dir, `s${status}-`));
    const { path, material } = await fullProfile(at, server.url);
    out = join(at, 'reports');
    run = await runHostile(['run', '--profile', path, ...ALL_REPORTERS, '--out', out], { env: material.env, timeoutMs: 120_000 });
  }, 150_000);
  afterAll(async () => {
    await server.close();
  });

  it('exit 2 with the stable code UNIFORM_ANSWER, on stderr and in the json verdict', async () => {
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`error\\[UNIFORM_ANSWER\\]: (nearly )?every request of the run got ${status} \\(\\d+ of \\d+\\)`));
    const { json } = await readReports(out);
    expect(json.verdict).toMatchObject({ status: 'error', exitCode: 2, code: 'UNIFORM_ANSWER' });
  });

  it('the first line after the console header says what every request got, the next what to check', () => {
    const [first, second] = afterHeader(run.stdout);
    expect(first).toMatch(new RegExp(`^ONE ANSWER FOR EVERYTHING: (nearly )?every one of the first \\d+ requests got ${status} `));
    expect(second).toMatch(check);
    expect(second).toContain('Also check: the base URL and path prefix, a proxy in front, the credentials, the target\'s startup.');
  });

  it('no MUST or SHOULD check passes but those that make no request; the refusal checks are blocked, not passed', async () => {
    const { json } = await readReports(out);
    const results = json.results as Array<{ id: string; group: string; state: string; level: string; blockedBy?: { control: string } }>;
    const passing = results.filter((r) => r.state === 'passed' && r.level !== 'INFO');
    expect(passing.filter((r) => r.group !== 'credentials').map((r) => r.id)).toEqual([]);
    // The ones the issue saw pass against a dead server.
    const byId = new Map(results.map((r) => [r.id, r]));
    for (const id of ['TOK-09', 'TOK-25', 'TOK-37', 'TOK-39', 'TOK-X01', 'CRED-X01', 'WH-27', 'RUN-04']) {
      expect(byId.get(id)?.state, id).not.toBe('passed');
    }
    if (status !== 502) expect(byId.get('TOK-09')).toMatchObject({ state: 'blocked', blockedBy: { control: 'TOK-02' } });
    expect(byId.get('RUN-04')).toMatchObject({ state: 'blocked', blockedBy: { control: 'WH-01' } });
  });

  it('every report leads with the notice (the HTML page with its verdict, the notice right under it)', async () => {
    const { markdown, html, junit, json } = await readReports(out);
    const mdLines = markdown.split('\n').filter((line) => line.trim() !== '');
    expect(mdLines[1]).toMatch(new RegExp(`ONE ANSWER FOR EVERYTHING: (nearly )?every request of the run got ${status}`));
    // The page opens on the verdict (issue 39); the notice stands right under it, before any check.
    expect(html.indexOf('ONE ANSWER FOR EVERYTHING')).toBeGreaterThan(html.indexOf('class="verdict'));
    expect(html.indexOf('ONE ANSWER FOR EVERYTHING')).toBeLessThan(html.indexOf('id="checks"'));
    expect(junit.indexOf('name="uniform-answer"')).toBeLessThan(junit.indexOf('<testcase name="TOK-01: '));
    expect((json as { uniformAnswer?: { answer: string } }).uniformAnswer?.answer).toBe(String(status));
  });
});
