/**
 * The inspector page as a developer sees it (issue 45): `serve` started as a script would (its ready line),
 * requests sent to it (some refused, some carrying every kind of secret, one carrying markup), then the page
 * opened in Debian's headless Chromium through puppeteer-core (no browser download; without chromium the
 * test skips and says so). Each refused row must show the same sentence as that answer's
 * error_description (whatever the diagnosing wrapper wrote, or the reference's own words before it is
 * merged); no secret may be in the page's text or HTML; markup sent by a client stays text; the page
 * fetches nothing but its own origin; a request sent while it is open appears. The screenshot at 1280 px is
 * kept under AC_INSPECTOR_SCREENSHOTS=<dir> to look at.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, clientAssertion, hmacSignature, nowSeconds, uuid, type WireResponse } from '../reference/support/wire.js';
import { startServeChild, type ServeChild } from './support/serve-child.js';

const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.warn(`inspector: SKIPPED, no chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_BIN)`);

/** A request the test sent, by the tag header the page shows back, and what it got. */
interface Sent {
  tag: string;
  response: WireResponse;
}

/** What the page's rows show, read in the page (plain JavaScript: the project compiles without the DOM library). */
const READ_ROWS = `function () {
  return Array.from(document.querySelectorAll('details.row')).map(function (row) {
    var headers = {};
    row.querySelectorAll('table.headers tr').forEach(function (tr) { headers[tr.children[0].textContent] = tr.children[1].textContent; });
    var sentence = row.querySelector('summary .sentence');
    return { status: Number(row.getAttribute('data-status')), sentence: sentence ? sentence.textContent : null, tag: headers['x-test-tag'] || null, seq: Number(row.getAttribute('data-seq')) };
  });
}`;

describe.skipIf(!HAVE_CHROMIUM)('the inspector page in Chromium', () => {
  let serve: ServeChild;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let shots: string;
  const sent: Sent[] = [];
  const secrets: string[] = [];
  const requested: string[] = [];

  const send = async (tag: string, path: string, init: RequestInit & { headers?: Record<string, string> }): Promise<WireResponse> => {
    const response = await call(`${serve.ready.baseUrl}${path}`, { ...init, headers: { ...init.headers, 'x-test-tag': tag } });
    sent.push({ tag, response });
    return response;
  };
  const webhook = (tag: string, body: string, headers: Record<string, string>): Promise<WireResponse> =>
    send(tag, `/api/v1/webhooks/incoming/${serve.profile.webhooks.hmac.listenerId}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ac-inspector-'));
    shots = process.env.AC_INSPECTOR_SCREENSHOTS ?? join(dir, 'shots');
    await mkdir(shots, { recursive: true });
    serve = await startServeChild();
    const p = serve.profile;
    const hmacSecret = p.webhooks.hmac.secret;
    const { clientId, clientSecret } = p.credentials.primary;
    secrets.push(hmacSecret, clientSecret, p.hooks.token, p.webhooks.hmacSecond.secret);

    // Accepted: a signed webhook, a token, an API call with it.
    const body = '{"user":"u-1","action":"offboard"}';
    const ts = String(nowSeconds());
    let id = uuid();
    const good = hmacSignature(hmacSecret, ts, id, body);
    secrets.push(good);
    expect((await webhook('hmac-ok', body, { 'webhook-timestamp': ts, 'webhook-event-id': id, 'webhook-signature': good })).status).toBe(200);
    const token = await send('token-ok', '/auth/v1/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }) });
    expect(token.status).toBe(200);
    const accessToken = token.json.access_token as string;
    secrets.push(accessToken);
    expect((await send('owners', `/api/v1/apps/${p.apps.owners.appId}/ownerids`, { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(200);

    // Refused, each for another reason.
    id = uuid();
    const wrongKey = hmacSignature(`${hmacSecret}x`, ts, id, body);
    secrets.push(wrongKey);
    expect((await webhook('hmac-wrong-key', body, { 'webhook-timestamp': ts, 'webhook-event-id': id, 'webhook-signature': wrongKey })).status).toBe(401);
    id = uuid();
    const msTs = String(Date.now());
    expect((await webhook('hmac-ms', body, { 'webhook-timestamp': msTs, 'webhook-event-id': id, 'webhook-signature': hmacSignature(hmacSecret, msTs, id, body) })).status).toBe(400);
    const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
    secrets.push(Buffer.from(`${clientId}:${clientSecret}`).toString('base64'));
    expect((await send('token-basic', '/auth/v1/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic }, body: form({ grant_type: 'client_credentials' }) })).status).toBe(400);
    expect((await send('token-wrong-secret', '/auth/v1/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form({ grant_type: 'client_credentials', client_id: clientId, client_secret: `${clientSecret}x` }) })).status).toBe(401);
    const assertion = clientAssertion(clientId, clientSecret, `${p.baseUrl}/auth/v1/token`, nowSeconds());
    secrets.push(assertion);
    const assertionForm = form({ grant_type: 'client_credentials', client_id: clientId, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion });
    expect((await send('assertion-aud', '/auth/v1/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: assertionForm })).status).toBe(401);
    // A secret pasted where no rule looks (a header of its own, the query, a JSON member of another name).
    expect((await send('pasted', `/api/v1/apps?note=${encodeURIComponent(hmacSecret)}`, { headers: { 'x-note': clientSecret, authorization: `Bearer ${accessToken}x` } })).status).toBe(401);
    // Markup from a client: must stay text.
    expect((await webhook('markup', '{"x":"</pre><script>document.title=\'owned\'</script><img src=x onerror=alert(1)>"}', { 'webhook-timestamp': ts, 'webhook-event-id': uuid(), 'x-markup': '<b id="injected">bold</b>' })).status).toBe(401);

    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${join(dir, 'profile')}`],
    });
    page = await browser.newPage();
    page.on('request', (request) => void requested.push(request.url()));
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(serve.ready.inspector, { waitUntil: 'load', timeout: 30_000 });
    await page.waitForFunction(`document.querySelectorAll('details.row').length >= ${sent.length}`, { timeout: 15_000 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await serve?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('shows every request, newest first, each refused one with the sentence of its error_description', async () => {
    const rows = (await page.evaluate(`(${READ_ROWS})()`)) as Array<{ status: number; sentence: string | null; tag: string | null; seq: number }>;
    const seqs = rows.map((row) => row.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    for (const { tag, response } of sent) {
      const row = rows.find((shown) => shown.tag === tag);
      expect(row, tag).toBeDefined();
      expect(row!.status, tag).toBe(response.status);
      if (response.status >= 400) {
        expect(typeof response.json?.error_description, tag).toBe('string');
        expect(row!.sentence, tag).toBe(response.json.error_description);
      }
    }
  });

  it('holds no secret in its text or its HTML, and says where each was', async () => {
    const html = (await page.evaluate('document.documentElement.outerHTML')) as string;
    const text = (await page.evaluate('document.body.textContent')) as string;
    for (const secret of secrets) {
      expect(html.includes(secret), `a secret of ${secret.length} characters is in the page`).toBe(false);
      expect(text.includes(secret)).toBe(false);
    }
    for (const placeholder of ['[WEBHOOK_SIGNATURE]', '[CLIENT_SECRET]', '[CLIENT_ASSERTION]', '[ACCESS_TOKEN]', '[HMAC_SECRET]', 'Basic [BASIC_CREDENTIALS]']) expect(html).toContain(placeholder);
    expect(html).toContain('"$CLIENT_SECRET"');
  });

  it('renders what a client sent as text: no markup of theirs became an element', async () => {
    const found = (await page.evaluate(`({ scripts: document.scripts.length, images: document.images.length, injected: !!document.getElementById('injected'), title: document.title })`)) as { scripts: number; images: number; injected: boolean; title: string };
    expect(found).toEqual({ scripts: 1, images: 0, injected: false, title: 'access-conformance sandbox inspector' });
    // textContent: the headers are in a closed row, which innerText leaves out.
    const text = (await page.evaluate('document.body.textContent')) as string;
    expect(text).toContain('<b id="injected">bold</b>');
  });

  it('fetches nothing but its own origin, and says so in its Content-Security-Policy', async () => {
    const origin = new URL(serve.ready.baseUrl).origin;
    expect(requested.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    const response = await call(serve.ready.inspector);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'.*connect-src 'self'/);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('shows a request sent while it is open', async () => {
    const before = (await page.evaluate(`document.querySelectorAll('details.row').length`)) as number;
    const late = await webhook('late', '{}', {});
    expect(late.status).toBe(400);
    await page.waitForFunction(`document.querySelectorAll('details.row').length > ${before}`, { timeout: 10_000 });
    const rows = (await page.evaluate(`(${READ_ROWS})()`)) as Array<{ tag: string | null; sentence: string | null }>;
    expect(rows[0]).toMatchObject({ tag: 'late', sentence: late.json.error_description });
  });

  it('a wrong or missing token gets the service\'s own 404, nothing of the page', async () => {
    const unknown = await call(`${serve.ready.baseUrl}/no/such/path`);
    const token = new URL(serve.ready.inspector).pathname.split('/')[3] as string;
    const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const path of ['/_sandbox/inspector/', `/_sandbox/inspector/${wrong}/`, `/_sandbox/inspector/${wrong}/requests.json`, '/_sandbox/inspector']) {
      const answer = await call(`${serve.ready.baseUrl}${path}`);
      expect(answer.status, path).toBe(404);
      expect(answer.text, path).toBe(unknown.text);
      expect(answer.headers.get('content-security-policy'), path).toBeNull();
    }
  });

  it('a screenshot at 1280 px (and 390 px), a refused row opened, no wider than the window', async () => {
    await page.evaluate(`(function () { var row = Array.from(document.querySelectorAll('details.row')).find(function (r) { return r.textContent.indexOf('hmac-wrong-key') !== -1; }); row.open = true; row.scrollIntoView(); window.scrollTo(0, 0); })()`);
    await page.screenshot({ path: join(shots, 'inspector-1280.png') });
    expect((await page.evaluate('document.scrollingElement.scrollWidth')) as number).toBeLessThanOrEqual(1280);
    // The opened row's answer and command, as a person scrolls to them.
    await page.evaluate(`document.querySelector('details.row[open] .detail pre:last-of-type').scrollIntoView({ block: 'end' })`);
    await page.screenshot({ path: join(shots, 'inspector-1280-row.png') });
    // A phone's width: one column, nothing wider than the window (long paths, tokens and bodies wrap).
    await page.setViewport({ width: 390, height: 844 });
    await page.screenshot({ path: join(shots, 'inspector-390.png') });
    expect((await page.evaluate('document.scrollingElement.scrollWidth')) as number).toBeLessThanOrEqual(390);
  });
});
