/**
 * §5.1 Scheme for API calls (ruling 6): an API call is accepted with a fresh bearer token and refused with
 * 401 without one, with an unknown one, with another scheme and once the token has expired. The expiry check
 * advances the target's clock past expires_in (test hook), so it runs last and alone; without the clock
 * hook it is skipped (a real token lifetime is too long to wait for).
 */
import { HarnessError } from '../src/errors.js';
import { check, type CheckContext } from './support/check.js';
import { group } from './support/group.js';
import { expectHeader, expectStatus } from './support/expect.js';
import { tokenForPrecondition } from './support/token-checks.js';

/** A token obtained now with the chosen method, not the client's cached one (the check owns its lifetime). */
async function freshToken(ctx: CheckContext, method: 'secret' | 'assertion' = 'secret'): Promise<{ token: string; expiresIn: unknown }> {
  const what = `fresh ${method === 'secret' ? 'basic-method' : 'assertion-method'} token`;
  const res = await ctx.client.requestToken({ method, label: what });
  const token = tokenForPrecondition(res, ctx.client.recorder, what);
  const body = res.json() as Record<string, unknown>;
  return { token, expiresIn: body.expires_in };
}

function ownersApp(ctx: CheckContext): string {
  return ctx.profile.apps.owners!.appId;
}

function largeApp(ctx: CheckContext): string {
  return ctx.profile.apps.entitlements.large!.appId;
}

/** Same length and alphabet, one character in the middle changed (all six bits of a middle base64 char count). */
function alterToken(token: string): string {
  let index = Math.floor(token.length / 2);
  while (index < token.length - 1 && !/[A-Za-z0-9]/.test(token[index]!)) index += 1;
  const replacement = token[index] === 'A' ? 'B' : 'A';
  return `${token.slice(0, index)}${replacement}${token.slice(index + 1)}`;
}

const isBearerChallenge = (value: string): boolean => /(^|,)\s*bearer(\s|,|$)/i.test(value);

group.concurrent('§5.1 Scheme for API calls', () => {
  check('AUTH-01', async (ctx) => {
    const what = 'entitlement list without Authorization';
    expectStatus(await ctx.client.entitlementsPage(largeApp(ctx), { token: null, label: what }), 401, what);
  });

  check('AUTH-02', async (ctx) => {
    const what = 'owner-ID list with a garbage bearer token';
    const garbage = ctx.faker.string.alphanumeric(40);
    expectStatus(await ctx.client.ownerIds(ownersApp(ctx), { token: garbage, label: what }), 401, what);
  });

  check('AUTH-03', async (ctx) => {
    const what = 'entitlement list with a garbage bearer token';
    const garbage = ctx.faker.string.alphanumeric(40);
    expectStatus(await ctx.client.entitlementsPage(largeApp(ctx), { token: garbage, label: what }), 401, what);
  });

  check('AUTH-04', async (ctx) => {
    const what = 'owner-ID list with a valid token under the Basic scheme';
    const { token } = await freshToken(ctx);
    expectStatus(await ctx.client.ownerIds(ownersApp(ctx), { authorization: `Basic ${token}`, label: what }), 401, what);
  });

  check('AUTH-05', async (ctx) => {
    const what = 'owner-ID list with "Bearer" and no token';
    expectStatus(await ctx.client.ownerIds(ownersApp(ctx), { authorization: 'Bearer ', label: what }), 401, what);
  });

  check('AUTH-06', async (ctx) => {
    const what = 'owner-ID list with a valid token altered in one character';
    const { token } = await freshToken(ctx);
    const altered = alterToken(token);
    ctx.client.recorder.addSecret(altered);
    expectStatus(await ctx.client.ownerIds(ownersApp(ctx), { token: altered, label: what }), 401, what);
  });

  check('AUTH-07', async (ctx) => {
    const hooks = ctx.client.hooks;
    if (!hooks) throw new HarnessError('HOOK_BROKEN', 'the clock hook was probed but the client has no hooks');
    const { token, expiresIn } = await freshToken(ctx);
    const lifetime = typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0
      ? expiresIn
      : ctx.skip('the token response has no usable expires_in to advance past (see TOK-22)');
    try {
      const before = await ctx.client.ownerIds(ownersApp(ctx), { token, label: 'owner-ID list with the fresh token' });
      if (before.status !== 200) {
        throw new HarnessError('TOKEN_UNAVAILABLE', `the fresh token was not accepted (status ${before.status}), so its expiry cannot be observed`, {
          hint: 'see AUTH-10 and OWN-01',
        });
      }
      await hooks.advance(Math.ceil(lifetime) + 60);
      const what = 'owner-ID list with a token past its expires_in';
      expectStatus(await ctx.client.ownerIds(ownersApp(ctx), { token, label: what }), 401, what);
    } finally {
      // Every cached token is now expired on the target; later checks must fetch new ones.
      ctx.client.resetTokens();
    }
  });

  check('AUTH-08', async (ctx) => {
    const what = 'owner-ID list without Authorization';
    const res = await ctx.client.ownerIds(ownersApp(ctx), { token: null, label: what });
    expectStatus(res, 401, what);
    expectHeader(res, 'www-authenticate', isBearerChallenge, what, 'WWW-Authenticate: Bearer ...');
  });

  check('AUTH-09', async (ctx) => {
    const what = 'owner-ID list with a garbage bearer token';
    const res = await ctx.client.ownerIds(ownersApp(ctx), { token: ctx.faker.string.alphanumeric(40), label: what });
    expectStatus(res, 401, what);
    expectHeader(res, 'www-authenticate', isBearerChallenge, what, 'WWW-Authenticate: Bearer ...');
  });

  check('AUTH-10', async (ctx) => {
    const what = 'owner-ID list with a fresh basic-method token';
    const { token } = await freshToken(ctx, 'secret');
    expectStatus(await ctx.client.ownerIds(ownersApp(ctx), { token, label: what }), 200, what);
  });

  check('AUTH-11', async (ctx) => {
    const what = 'owner-ID list with a fresh assertion-method token';
    const { token } = await freshToken(ctx, 'assertion');
    expectStatus(await ctx.client.ownerIds(ownersApp(ctx), { token, label: what }), 200, what);
  });

  check('AUTH-12', async (ctx) => {
    const what = 'entitlement list with a fresh token';
    const { token } = await freshToken(ctx);
    expectStatus(await ctx.client.entitlementsPage(largeApp(ctx), { token, label: what }), 200, what);
  });
});
