/**
 * §4.2 List owner IDs of an app (ruling 8): `GET /api/v1/apps/{app_id}/ownerids` answers 200 JSON with
 * `userIds` (array of strings or null), the profile's expected owners when it lists them, no pagination,
 * 401 without a token and (SHOULD) 404 for an unknown app.
 */
import type { HttpResponse } from '../src/client/types.js';
import { check, type CheckContext } from './support/check.js';
import { group } from './support/group.js';
import { expectField, expectJsonContentType, expectJsonObject, expectStatus, expectThat, jsonType } from './support/expect.js';

async function listOwners(ctx: CheckContext, what: string): Promise<HttpResponse> {
  return ctx.client.ownerIds(ctx.profile.apps.owners!.appId, { label: what });
}

/** 200 and a JSON object with `userIds`: the precondition of every shape check after OWN-03. */
async function userIds(ctx: CheckContext, what: string): Promise<unknown> {
  const res = await listOwners(ctx, what);
  expectStatus(res, 200, what);
  return expectField(expectJsonObject(res, what), 'userIds', what);
}

function describeIds(ids: readonly string[] | null): string {
  return ids === null ? 'null' : `[${ids.map((id) => JSON.stringify(id)).join(', ')}]`;
}

group.concurrent('§4.2 List owner IDs of an app', () => {
  check('OWN-01', async (ctx) => {
    const what = 'owner-ID list of the owners app';
    expectStatus(await listOwners(ctx, what), 200, what);
  });

  check('OWN-02', async (ctx) => {
    const what = 'owner-ID list of the owners app';
    const res = await listOwners(ctx, what);
    expectStatus(res, 200, what);
    expectJsonContentType(res, what);
  });

  check('OWN-03', async (ctx) => {
    await userIds(ctx, 'owner-ID list of the owners app');
  });

  check('OWN-04', async (ctx) => {
    const value = await userIds(ctx, 'owner-ID list of the owners app');
    const ok = value === null || (Array.isArray(value) && value.every((id) => typeof id === 'string'));
    const actual = Array.isArray(value) ? `array holding ${[...new Set(value.map(jsonType))].join(', ') || 'nothing'}` : jsonType(value);
    expectThat(ok, 'userIds is neither an array of strings nor null', 'an array of strings, or null', actual);
  });

  check('OWN-05', async (ctx) => {
    const expected = ctx.profile.apps.owners!.ownerIds ?? null;
    const value = await userIds(ctx, 'owner-ID list of the owners app');
    expectThat(value === null || (Array.isArray(value) && value.every((id) => typeof id === 'string')),
      'userIds is neither an array of strings nor null (see OWN-04)', 'an array of strings, or null', jsonType(value));
    const actual = value as string[] | null;
    // "null when the app has none": an empty array says the same.
    const want = [...(expected ?? [])].sort();
    const got = [...(actual ?? [])].sort();
    const same = want.length === got.length && want.every((id, index) => id === got[index]);
    expectThat(same, 'userIds are not the expected owners', `${describeIds(expected)} (any order)`, describeIds(actual));
  });

  check('OWN-06', async (ctx) => {
    const what = 'owner-ID list of the owners app';
    const res = await listOwners(ctx, what);
    expectStatus(res, 200, what);
    const body = expectJsonObject(res, what);
    const paging = ['nextPageToken', 'list', 'next_page_token'].filter((key) => key in body);
    ctx.note(paging.length === 0
      ? `not paginated: body keys are ${Object.keys(body).join(', ')}`
      : `body carries pagination-like field(s) ${paging.join(', ')}; the operation is documented as not paginated`);
  });

  check('OWN-07', async (ctx) => {
    const what = 'owner-ID list without Authorization';
    expectStatus(await ctx.client.ownerIds(ctx.profile.apps.owners!.appId, { token: null, label: what }), 401, what);
  });

  check('OWN-08', async (ctx) => {
    const what = 'owner-ID list of an unknown app';
    expectStatus(await ctx.client.ownerIds(ctx.profile.apps.missingAppId!, { label: what }), 404, what);
  });
});
