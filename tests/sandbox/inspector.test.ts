/**
 * The inspector's routes on a sandbox composed as `serve` composes it (issue 45), in process, without a
 * browser: a token of 256 bits in the URL; the page and its feed under a strict CSP; the feed newest first,
 * only what came after `after`, the page's own asks never logged; every route of the service still
 * answered as before, the inspector's prefix outside all of them; a wrong token the service's own 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { combineFaults } from '../../src/faults/index.js';
import { createInspection, type Inspection } from '../../src/sandbox/inspection.js';
import { INSPECTOR_PREFIX, type InspectorRow } from '../../src/sandbox/inspector.js';
import { startSandbox, type Sandbox } from '../../src/tenant/sandbox.js';
import { call } from '../reference/support/wire.js';

let sandbox: Sandbox;
let inspection: Inspection;
let url: string;

beforeAll(async () => {
  inspection = createInspection({ cheatSheet: () => 'cheat <sheet> & "quotes"\u001b[31m' });
  sandbox = await startSandbox({ seed: 'inspector-routes', hooks: true, customize: combineFaults([{ customize: inspection.customize }]) });
  url = inspection.inspector!.url;
});

afterAll(async () => {
  await sandbox?.close();
});

const feed = async (after = 0): Promise<{ lastSeq: number; rows: InspectorRow[] }> => (await call(`${url}requests.json?after=${after}`)).json;

describe('the inspector on the sandbox', () => {
  it('carries a 256-bit random token in its URL, on the sandbox\'s own origin', () => {
    expect(url.startsWith(`${sandbox.baseUrl}${INSPECTOR_PREFIX}`)).toBe(true);
    const token = url.slice(`${sandbox.baseUrl}${INSPECTOR_PREFIX}`.length, -1);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('serves the page with a strict CSP and the cheat-sheet escaped', async () => {
    const page = await call(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'; connect-src 'self'/);
    expect(csp).not.toMatch(/unsafe|https?:|\*/);
    expect(page.text).toContain('cheat &lt;sheet&gt; &amp; &quot;quotes&quot;\\x1b[31m');
    expect(page.text).not.toMatch(/<(link|img|iframe)\b|src=|href=/);
  });

  it('lists the requests newest first, only those after `after`, never its own', async () => {
    const before = (await feed()).lastSeq;
    await call(`${sandbox.baseUrl}/openapi.json`);
    await call(`${sandbox.baseUrl}/api/v1/apps`);
    const after = await feed(before);
    expect(after.rows.map((row) => [row.method, row.target, row.status])).toEqual([
      ['GET', '/api/v1/apps', 401],
      ['GET', '/openapi.json', 200],
    ]);
    expect(after.rows[0]?.sentence).toBe(JSON.parse((await call(`${sandbox.baseUrl}/api/v1/apps`)).text).error_description);
    expect((await feed(after.lastSeq)).rows.map((row) => row.target)).toEqual(['/api/v1/apps']);
  });

  it('leaves every route of the service as it was; a wrong token, another method or path under it is the service\'s 404', async () => {
    expect((await call(`${sandbox.baseUrl}/openapi.json`)).status).toBe(200);
    expect((await call(`${sandbox.baseUrl}/__hooks/v1/clock`, { headers: { authorization: `Bearer ${sandbox.tenant.hooks.token}` } })).status).toBe(200);
    const unknown = (await call(`${sandbox.baseUrl}/nothing/here`)).text;
    for (const [path, init] of [
      [`${INSPECTOR_PREFIX}x/`, {}],
      [INSPECTOR_PREFIX, {}],
      [`${new URL(url).pathname}nothing`, {}],
      [new URL(url).pathname, { method: 'POST', body: '{}' }],
    ] as Array<[string, RequestInit]>) {
      const answer = await call(`${sandbox.baseUrl}${path}`, init);
      expect([path, answer.status]).toEqual([path, 404]);
      expect(answer.text).toBe(unknown);
    }
  });
});
