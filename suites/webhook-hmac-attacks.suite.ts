/**
 * Attacks on the HMAC comparison (§5.4, ruling 21): each check sends an otherwise valid request whose
 * Webhook-Signature is the valid digest changed the way a lenient comparison would still accept (case,
 * extra or missing characters, whitespace inside, a scheme prefix, a list), and expects 401. The check
 * signs the exact timestamp, event ID and body it sends, and asserts the header went out as meant.
 */
import type { RequirementId } from '../src/requirements.js';
import { check, type CheckContext } from './support/check.js';
import { group } from './support/group.js';
import { expectStatus } from './support/expect.js';
import { assertSent, outcome } from './support/webhook-expect.js';
import { freshEventId, hmacListener, sampleBody, timestampOf, validSignature, type SignedParts } from './support/webhook-values.js';

/** Flips the case of the first letter of the digest (43 base64url characters hold a letter: ~1 - 1e-30). */
function flipFirstLetter(digest: string): string {
  const index = digest.search(/[A-Za-z]/);
  if (index < 0) return digest;
  const ch = digest[index]!;
  const flipped = ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
  return `${digest.slice(0, index)}${flipped}${digest.slice(index + 1)}`;
}

/** A character that makes the digest longer without making it padding (`=` is WH-HMAC-18's business). */
const APPENDED = 'A';

type Mangle = (valid: string) => string;

/** Each check: how the valid digest is changed, in words and as a function. */
const MANGLED: ReadonlyArray<[RequirementId, string, Mangle]> = [
  ['WH-HMAC-X01', 'with the case of one letter flipped', flipFirstLetter],
  ['WH-HMAC-X02', 'in upper case', (valid) => valid.toUpperCase()],
  ['WH-HMAC-X03', 'in lower case', (valid) => valid.toLowerCase()],
  ['WH-HMAC-X04', `with "${APPENDED}" appended`, (valid) => `${valid}${APPENDED}`],
  ['WH-HMAC-X05', 'written twice', (valid) => `${valid}${valid}`],
  ['WH-HMAC-X06', 'cut to its first half (22 characters)', (valid) => valid.slice(0, 22)],
  ['WH-HMAC-X07', 'cut to its first character', (valid) => valid.slice(0, 1)],
  ['WH-HMAC-X08', 'with a space between its halves', (valid) => `${valid.slice(0, 22)} ${valid.slice(22)}`],
  ['WH-HMAC-X09', 'with a tab between its halves', (valid) => `${valid.slice(0, 22)}\t${valid.slice(22)}`],
  ['WH-HMAC-X10', 'behind the prefix "v1,"', (valid) => `v1,${valid}`],
  ['WH-HMAC-X11', 'behind the prefix "sha256="', (valid) => `sha256=${valid}`],
  ['WH-HMAC-X12', 'as the second member of a space-separated list', (valid) => `${otherDigest(valid)} ${valid}`],
];

/** A digest-shaped value of the same length that is not the valid one. */
function otherDigest(valid: string): string {
  return [...valid].reverse().join('') === valid ? `${valid.slice(1)}A` : [...valid].reverse().join('');
}

async function partsFor(ctx: CheckContext): Promise<SignedParts> {
  return { timestamp: timestampOf(await ctx.client.now()), eventId: freshEventId(), body: JSON.stringify(sampleBody(ctx.faker)) };
}

group('§5.4 Webhook HMAC: comparison attacks', () => {
  for (const [id, what, mangle] of MANGLED) {
    check(id, async (ctx) => {
      const { secret } = hmacListener(ctx.profile);
      const parts = await partsFor(ctx);
      const valid = validSignature(secret, parts);
      const signature = mangle(valid);
      if (signature === valid) return ctx.skip(`the valid digest "${valid}" is unchanged ${what}; this check cannot say anything for it`);
      const res = await ctx.client.sendWebhook('hmac', { ...parts, hmac: { signature }, label: `webhook hmac: valid digest ${what}` });
      assertSent(res, 'webhook-signature', signature, (text) => ctx.client.recorder.redact(text));
      expectStatus(res, 401, `the valid digest ${what}`);
    });
  }

  check('WH-HMAC-X13', async (ctx) => {
    const parts = await partsFor(ctx);
    const signature = ` ${validSignature(hmacListener(ctx.profile).secret, parts)} `;
    const res = await ctx.client.sendWebhook('hmac', { ...parts, hmac: { signature }, label: 'webhook hmac: valid digest between spaces' });
    ctx.note(`valid digest with a space before and after it (stripped by HTTP as optional whitespace): ${outcome(res)}`);
  });
});
