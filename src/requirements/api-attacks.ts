import type { Catalogue } from './types.js';
import { ruling, spec } from './authority.js';

/**
 * API edge cases (service.md §4.2, §4.4; rulings 8, 9): an app with no owners is still an app, and
 * `page_size` is an integer literal, not whatever a lenient number parser makes of the text.
 */
const pageSize = (form: string, why: string) => ({
  section: '4.4',
  ruling: 27,
  level: 'SHOULD',
  text: `A non-integer page_size (\`${form}\`: ${why}) SHOULD get 400.`,
  group: 'api-attacks',
  needs: ['apps.entitlements.large'],
  authority: ruling(27),
}) as const;

const denotes50 = (form: string, why: string) => ({
  section: '4.4',
  ruling: 27,
  level: 'INFO',
  text: `page_size \`${form}\` (${why}) denotes 50 unambiguously: accepting or refusing it is recorded.`,
  group: 'api-attacks',
  needs: ['apps.entitlements.large'],
  authority: ruling(27),
}) as const;

export const apiAttackRequirements = {
  'OWN-X01': {
    section: '4.2',
    ruling: 8,
    level: 'MUST',
    text: 'The owner-ID list of every existing app the profile names (the entitlement apps too, whatever their owners, none included) gets 200 with `userIds` an array of strings or null: an app without owners is not "not found".',
    group: 'api-attacks',
    needs: ['apps.entitlements.empty'],
    authority: spec('4.2', 'Success response: status 200, `application/json`, body as in 2.3 (`userIds`: array of strings or null).'),
  },
  'PAGE-X01': pageSize('25abc', 'digits followed by text'),
  'PAGE-X02': pageSize('50.5', 'a fraction'),
  'PAGE-X03': pageSize('1e2', 'exponent notation'),
  'PAGE-X04': denotes50(' 50', 'a leading space; pydantic strips it'),
  'PAGE-X05': denotes50('+50', 'a plus sign; Go\'s ParseInt and pydantic accept it'),
  'PAGE-X06': {
    section: '4.4',
    ruling: 27,
    level: 'MUST',
    text: 'A page_size text the service accepts acts as the integer it denotes (clamped per ruling 9): ` 50`, `+50` and `050` as 50, `1e2` as 100; refusing them (4xx) passes.',
    group: 'api-attacks',
    needs: ['apps.entitlements.large'],
    authority: ruling(27),
  },
} as const satisfies Catalogue;
