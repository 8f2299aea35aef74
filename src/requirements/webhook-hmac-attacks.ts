import type { Catalogue } from './types.js';
import { mismatch, rfc } from './authority.js';

/**
 * Attacks on the HMAC comparison (service.md §5.4, ruling 21): the one valid Webhook-Signature is the
 * exact base64url text of the digest. Every near miss a lenient comparison would let through (another
 * case, extra or missing characters, whitespace inside, a scheme prefix or a list as other webhook
 * schemes use) is a mismatch: 401. Leading and trailing whitespace is only recorded: HTTP strips it from
 * the field value before anyone compares (RFC 7230 §3.2.4), so accepting it is no weakness.
 */
const hmacAttack = (text: string) => ({ section: '5.4', ruling: 21, level: 'MUST', text, group: 'webhook-hmac-attacks', needs: ['webhooks.hmac'], authority: mismatch }) as const;

export const webhookHmacAttackRequirements = {
  'WH-HMAC-X01': hmacAttack('base64url is case-sensitive: the valid digest with the case of one letter flipped is a mismatch: 401.'),
  'WH-HMAC-X02': hmacAttack('The valid digest in upper case is a mismatch: 401 (a case-insensitive comparison is a bug).'),
  'WH-HMAC-X03': hmacAttack('The valid digest in lower case is a mismatch: 401.'),
  'WH-HMAC-X04': hmacAttack('The valid digest with one character appended is a mismatch: 401 (the comparison covers the whole value, not the digest\'s length).'),
  'WH-HMAC-X05': hmacAttack('The valid digest written twice is a mismatch: 401.'),
  'WH-HMAC-X06': hmacAttack('The first half of the valid digest (a truncated MAC of 22 characters) is a mismatch: 401.'),
  'WH-HMAC-X07': hmacAttack('The first character of the valid digest alone is a mismatch: 401.'),
  'WH-HMAC-X08': hmacAttack('The valid digest with a space inside (between its halves) is a mismatch: 401 (whitespace is not stripped from inside the value).'),
  'WH-HMAC-X09': hmacAttack('The valid digest with a tab inside is a mismatch: 401.'),
  'WH-HMAC-X10': hmacAttack('The valid digest behind a scheme prefix (`v1,<digest>`, as Standard Webhooks write it) is a mismatch: 401.'),
  'WH-HMAC-X11': hmacAttack('The valid digest behind a scheme prefix (`sha256=<digest>`, as GitHub writes it) is a mismatch: 401.'),
  'WH-HMAC-X12': hmacAttack('A space-separated list holding the valid digest after another value (`<other> <digest>`) is a mismatch: 401 (the header holds one signature, not a list).'),
  'WH-HMAC-X13': {
    section: '5.4',
    ruling: 21,
    level: 'INFO',
    text: 'The valid digest with a space before and after it: optional whitespace around a field value is not part of it (RFC 7230 §3.2.4); accept or refuse is recorded.',
    group: 'webhook-hmac-attacks',
    needs: ['webhooks.hmac'],
    authority: rfc(7230, '3.2.4', 'optional whitespace around a field value is not part of the value'),
  },
} as const satisfies Catalogue;
