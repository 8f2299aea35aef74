/**
 * §4.2, §4.4 (rulings 8, 9): an app without owners is an existing app (200, `userIds` empty or null, never
 * 404), and `page_size` is an integer literal (ruling 27): digits followed by text, a fraction or an exponent
 * SHOULD get 400; a leading space or plus sign is only recorded (Go's ParseInt and pydantic read 50); and a
 * form the service accepts MUST act as the integer it denotes.
 */
import type { RequirementId } from '../src/requirements/catalogue.js';
import { check } from './support/check.js';
import { group } from './support/group.js';
import type { HttpResponse } from '../src/client/types.js';
import { expectField, expectJsonObject, expectStatus, expectThat, isClientError, jsonType } from './support/expect.js';

/** Forms a strict integer parser refuses and a lenient one misreads (ruling 27: SHOULD 400). */
const NOT_INTEGERS: ReadonlyArray<[RequirementId, string]> = [
  ['PAGE-X01', '25abc'],
  ['PAGE-X02', '50.5'],
  ['PAGE-X03', '1e2'],
];

/** Forms that denote 50 unambiguously (Go's ParseInt and pydantic read them): only recorded (ruling 27). */
const DENOTING_50: ReadonlyArray<[RequirementId, string]> = [
  ['PAGE-X04', ' 50'],
  ['PAGE-X05', '+50'],
];

/** Ruling 27, MUST: a page_size text the service accepts acts as the integer it denotes, clamped (ruling 9). */
const DENOTED: ReadonlyArray<[string, number]> = [[' 50', 50], ['+50', 50], ['050', 50], ['1e2', 100]];
const PAGE_SIZE_MIN = 10;
const PAGE_SIZE_MAX = 100;

/** The number of items of an accepted page, or undefined when the body is no page. */
function pageLength(res: HttpResponse): number | undefined {
  const list = (res.json() as { list?: unknown } | undefined)?.list;
  return Array.isArray(list) ? list.length : undefined;
}

group('§4.2, §4.4 API: edge cases', () => {
  check('OWN-X01', async ({ client, profile }) => {
    const { owners, entitlements } = profile.apps;
    // Every app the profile names exists; the one without entitlements is the likeliest to have no owners.
    const apps = new Map<string, string>();
    for (const [key, app] of Object.entries(entitlements)) if (app) apps.set(app.appId, `apps.entitlements.${key}`);
    if (owners) apps.set(owners.appId, 'apps.owners');
    const answers = await Promise.all([...apps].map(async ([appId, where]) => ({ where, res: await client.ownerIds(appId, { label: `owner IDs of ${where}` }) })));
    for (const { where, res } of answers) {
      const what = `owner-ID list of ${where}`;
      expectStatus(res, 200, what);
      const value = expectField(expectJsonObject(res, what), 'userIds', what);
      const ok = value === null || (Array.isArray(value) && value.every((id) => typeof id === 'string'));
      expectThat(ok, `${what}: userIds is neither an array of strings nor null`, 'an array of strings, or null', jsonType(value));
    }
  });

  for (const [id, pageSize] of NOT_INTEGERS) {
    check(id, async ({ client, profile }) => {
      const what = `first page with page_size=${JSON.stringify(pageSize)}`;
      const res = await client.entitlementsPage(profile.apps.entitlements.large!.appId, { pageSize, label: what });
      expectStatus(res, 400, what);
    });
  }

  for (const [id, pageSize] of DENOTING_50) {
    check(id, async ({ client, profile, note }) => {
      const what = `first page with page_size=${JSON.stringify(pageSize)}`;
      const res = await client.entitlementsPage(profile.apps.entitlements.large!.appId, { pageSize, label: what });
      note(`${what}: ${res.status === 200 ? `accepted, ${pageLength(res) ?? 'no list of'} items` : `refused ${res.status}`}`);
    });
  }

  check('PAGE-X06', async ({ client, profile }) => {
    const app = profile.apps.entitlements.large!;
    for (const [pageSize, denotes] of DENOTED) {
      const what = `first page with page_size=${JSON.stringify(pageSize)} (${denotes})`;
      const res = await client.entitlementsPage(app.appId, { pageSize, label: what });
      expectStatus(res, (status) => status === 200 || isClientError(status), what, '200 with the page it denotes, or a 4xx refusal');
      if (res.status !== 200) continue;
      const expected = Math.min(app.count, Math.min(PAGE_SIZE_MAX, Math.max(PAGE_SIZE_MIN, denotes)));
      const length = pageLength(res);
      expectThat(length === expected, `${what}: accepted, but the page holds ${length ?? 'no list of'} items`, `${expected} items`, `${length ?? 'no list'}`);
    }
  });
});
