/**
 * Attacks on the HMAC comparison (§5.4, ruling 21): each check sends an otherwise valid request whose
 * Webhook-Signature is the valid digest changed the way a lenient comparison would still accept (case,
 * extra or missing characters, whitespace inside, a scheme prefix, a list), and expects 401. The check
 * signs the exact timestamp, event ID and body it sends, and asserts the header went out as meant.
 */
import { mangleSignature, type SignatureMangle } from '../src/client/index.js';
import type { RequirementId } from '../src/requirements/catalogue.js';
import { check, type CheckContext } from './support/check.js';
import { group } from './support/group.js';
import { expectStatus } from './support/expect.js';
import { assertSent, outcome } from './support/webhook-expect.js';
import { freshEventId, hmacListener, sampleBody, timestampOf, validSignature, type SignedParts } from './support/webhook-values.js';

/** A character that makes the digest longer without making it padding (`=` is WH-HMAC-18's business). */
const APPENDED = 'A';

/**
 * Each check: how the valid digest is changed, in words and as data the client applies after signing
 * (src/client/signature-mangle.ts), so that a failure's reproduction signs anew and changes it the same way.
 */
const MANGLED: ReadonlyArray<[RequirementId, string, SignatureMangle]> = [
  ['WH-HMAC-X01', 'with the case of one letter flipped', { op: 'flip-first-letter' }],
  ['WH-HMAC-X02', 'in upper case', { op: 'upper' }],
  ['WH-HMAC-X03', 'in lower case', { op: 'lower' }],
  ['WH-HMAC-X04', `with "${APPENDED}" appended`, { op: 'append', text: APPENDED }],
  ['WH-HMAC-X05', 'written twice', { op: 'twice' }],
  ['WH-HMAC-X06', 'cut to its first half (22 characters)', { op: 'keep', chars: 22 }],
  ['WH-HMAC-X07', 'cut to its first character', { op: 'keep', chars: 1 }],
  ['WH-HMAC-X08', 'with a space between its halves', { op: 'insert', at: 22, text: ' ' }],
  ['WH-HMAC-X09', 'with a tab between its halves', { op: 'insert', at: 22, text: '\t' }],
  ['WH-HMAC-X10', 'behind the prefix "v1,"', { op: 'prefix', text: 'v1,' }],
  ['WH-HMAC-X11', 'behind the prefix "sha256="', { op: 'prefix', text: 'sha256=' }],
  ['WH-HMAC-X12', 'as the second member of a space-separated list', { op: 'after-other' }],
];

async function partsFor(ctx: CheckContext): Promise<SignedParts> {
  return { timestamp: timestampOf(await ctx.client.now()), eventId: freshEventId(), body: JSON.stringify(sampleBody(ctx.faker)) };
}

group('§5.4 Webhook HMAC: comparison attacks', () => {
  for (const [id, what, mangle] of MANGLED) {
    check(id, async (ctx) => {
      const { secret } = hmacListener(ctx.profile);
      const parts = await partsFor(ctx);
      const valid = validSignature(secret, parts);
      const signature = mangleSignature(valid, mangle);
      if (signature === valid) return ctx.skip(`the valid digest "${valid}" is unchanged ${what}; this check cannot say anything for it`);
      const res = await ctx.client.sendWebhook('hmac', { ...parts, hmac: { mangle }, label: `webhook hmac: valid digest ${what}` });
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
