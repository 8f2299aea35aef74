/**
 * §4.2, §4.4 (rulings 8, 9): an app without owners is an existing app (200, `userIds` empty or null, never
 * 404), and `page_size` is an integer literal: the forms a lenient number parser reads as one (digits
 * followed by text, a fraction, an exponent, a leading space or plus sign) SHOULD get 400.
 */
import type { RequirementId } from '../src/requirements.js';
import { check } from './support/check.js';
import { group } from './support/group.js';
import { expectField, expectJsonObject, expectStatus, expectThat, jsonType } from './support/expect.js';

const PAGE_SIZES: ReadonlyArray<[RequirementId, string]> = [
  ['PAGE-X01', '25abc'],
  ['PAGE-X02', '50.5'],
  ['PAGE-X03', '1e2'],
  ['PAGE-X04', ' 50'],
  ['PAGE-X05', '+50'],
];

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

  for (const [id, pageSize] of PAGE_SIZES) {
    check(id, async ({ client, profile }) => {
      const what = `first page with page_size=${JSON.stringify(pageSize)}`;
      const res = await client.entitlementsPage(profile.apps.entitlements.large!.appId, { pageSize, label: what });
      expectStatus(res, 400, what);
    });
  }
});
