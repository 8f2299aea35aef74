/** Test hooks (profile/test-hooks.md): present only when enabled, token-protected, clock and runs. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { call } from './support/wire.js';

let on: TestSandbox;
let off: TestSandbox;
beforeAll(async () => {
  [on, off] = await Promise.all([startTestSandbox({ hooks: true }), startTestSandbox({ hooks: false })]);
});
afterAll(async () => Promise.all([on?.close(), off?.close()]));

describe('hooks', () => {
  it('do not exist when off, and the profile says none', async () => {
    expect(off.profile.hooks).toBeUndefined();
    expect((await call(`${off.baseUrl}/__hooks/v1/clock`, { headers: { authorization: 'Bearer x' } })).status).toBe(404);
    expect((await call(`${off.baseUrl}/__hooks/v1/runs?listenerId=x`)).status).toBe(404);
  });
  it('answer 401 without the token or with a wrong one', async () => {
    const url = `${on.profile.hooks?.baseUrl}/clock`;
    expect((await call(url)).status).toBe(401);
    expect((await call(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await call(url, { method: 'POST', body: '{"advanceSeconds":5}', headers: { 'content-type': 'application/json' } })).status).toBe(401);
  });
  it('read and advance the clock, forward only', async () => {
    const auth = { authorization: `Bearer ${on.profile.hooks?.token}` };
    const url = `${on.profile.hooks?.baseUrl}/clock`;
    const before = (await call(url, { headers: auth })).json.now as number;
    expect(Math.abs(before - Date.now() / 1000)).toBeLessThan(60);
    const advanced = await call(url, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"advanceSeconds":3600.5}' });
    expect(advanced.status).toBe(200);
    expect(advanced.json.now - before).toBeGreaterThanOrEqual(3600.5);
    for (const body of ['{"advanceSeconds":-1}', '{"advanceSeconds":0}', '{"advanceSeconds":"10"}', '{}', 'nope', 'null']) {
      const response = await call(url, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body });
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
    }
    const after = (await call(url, { headers: auth })).json.now as number;
    expect(after).toBeGreaterThanOrEqual(advanced.json.now);
  });
  it('list runs oldest first with event ID, context and time', async () => {
    const listener = on.profile.webhooks.hmacSecond;
    const first = await on.hmac(listener, { body: '{"n":1}' });
    const second = await on.hmac(listener, { body: '{"n":2}' });
    expect([first.status, second.status]).toEqual([200, 200]);
    const runs = await on.runs(listener.listenerId);
    expect(runs.map((r) => r.context)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(runs[0]?.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof runs[0]?.at).toBe('number');
    expect(await on.runs('wh_UNKNOWN')).toEqual([]);
    const auth = { authorization: `Bearer ${on.profile.hooks?.token}` };
    expect((await call(`${on.profile.hooks?.baseUrl}/runs`, { headers: auth })).status).toBe(400);
  });
  it('answer each run\'s context as the body\'s JSON text, so no digit is lost', async () => {
    const listener = on.profile.webhooks.hmacSecond;
    const body = '{ "big": 9007199254740993, "zero": -0, "far": 1e400, "s": "\\u00e9\\/" }';
    expect((await on.hmac(listener, { body })).status).toBe(200);
    const auth = { authorization: `Bearer ${on.profile.hooks?.token}` };
    const response = await call(`${on.profile.hooks?.baseUrl}/runs?listenerId=${listener.listenerId}`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.text).toContain(`"context":${body},"at":`);
  });
});
