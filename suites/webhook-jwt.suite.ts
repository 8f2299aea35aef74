/**
 * §5.4 JWT (ruling 22): `Authorization: Bearer <JWT>`, signed with RS256, ES256 or EdDSA by a key of the
 * listener's JWKS matched by `kid`, with `sub` = tenant base URL, `aud` = listener URL, `exp` within 10
 * minutes, `jti` = Webhook-Event-Id, `htm` = POST and `htb_s256` = base64url SHA-256 of the raw body.
 * Every check sends an otherwise valid request whose JWT is wrong in one way only, and expects 401.
 * Time bounds are probed minutes away from the limits so that clock skew cannot decide the result.
 */
import { createHash } from 'node:crypto';
import { sha256Base64Url } from '../src/crypto/encoding.js';
import { generateSigningKey } from '../src/crypto/signing-keys.js';
import { buildWebhookClaims, signWebhookJwt } from '../src/crypto/webhook-jwt.js';
import type { JwtAlg } from '../src/profile/types.js';
import type { RequirementId } from '../src/requirements/catalogue.js';
import { check, type CheckContext } from './support/check.js';
import { group } from './support/group.js';
import { expectStatus } from './support/expect.js';
import { assertSent, expectAccepted, outcome } from './support/webhook-expect.js';
import { freshEventId, jwtListener, sampleBody, webhookUrl } from './support/webhook-values.js';
import type { WebhookJwtOptions } from '../src/client/types.js';

/** `exp` probes (seconds from now): past, too far ahead, and comfortably inside the 10-minute bound. */
const EXP_PAST = -300;
const EXP_TOO_FAR = 15 * 60;
const EXP_INSIDE = 8 * 60;

/** Sends to the JWT listener with one JWT defect and expects 401. */
async function expectJwtRefused(ctx: CheckContext, jwt: WebhookJwtOptions, what: string, extra: { body?: string; eventId?: string } = {}): Promise<void> {
  const res = await ctx.client.sendWebhook('jwt', { ...extra, jwt, label: `webhook jwt: ${what}` });
  expectStatus(res, 401, `JWT ${what}`);
}

const ALG_CHECKS: ReadonlyArray<[RequirementId, JwtAlg]> = [
  ['WH-JWT-01', 'RS256'],
  ['WH-JWT-02', 'ES256'],
  ['WH-JWT-03', 'EdDSA'],
];

const MISSING_CLAIMS: ReadonlyArray<[RequirementId, string]> = [
  ['WH-JWT-11', 'sub'],
  ['WH-JWT-12', 'aud'],
  ['WH-JWT-13', 'exp'],
  ['WH-JWT-14', 'jti'],
  ['WH-JWT-15', 'htm'],
  ['WH-JWT-16', 'htb_s256'],
];

group.concurrent('§5.4 Webhook JWT', () => {
  for (const [id, alg] of ALG_CHECKS) {
    check(id, async ({ client }) => {
      const res = await client.sendWebhook('jwt', { jwt: { alg }, label: `webhook jwt: valid ${alg}` });
      expectAccepted(res, `valid ${alg} JWT`);
    });
  }

  check('WH-JWT-04', async ({ client }) => {
    const res = await client.sendWebhook('jwt', { omitHeaders: ['Authorization'], label: 'webhook jwt: no Authorization' });
    assertSent(res, 'authorization', null);
    expectStatus(res, 401, 'request without Authorization');
  });

  check('WH-JWT-05', async (ctx) => {
    const listener = jwtListener(ctx.profile);
    const key = listener.signingKeys[0]!;
    const body = JSON.stringify(sampleBody(ctx.faker));
    const eventId = freshEventId();
    const claims = buildWebhookClaims({
      baseUrl: ctx.profile.baseUrl,
      webhookUrl: webhookUrl(ctx.profile, listener.listenerId),
      eventId,
      body: Buffer.from(body, 'utf8'),
      now: Math.floor(await ctx.client.now()),
    });
    const token = await signWebhookJwt({ key, claims });
    ctx.client.recorder.addSecret(token);
    // DPoP is the scheme whose proofs look most like these claims (htm, a body hash): the likeliest mix-up.
    await expectJwtRefused(ctx, { authorization: `DPoP ${token}` }, 'valid but under the DPoP scheme instead of Bearer', { body, eventId });
  });

  check('WH-JWT-06', async (ctx) => {
    const kid = `unknown-${ctx.faker.string.alphanumeric(16)}`;
    await expectJwtRefused(ctx, { header: { kid } }, `with kid "${kid}" that is not in the JWKS`);
  });

  check('WH-JWT-07', async (ctx) => {
    await expectJwtRefused(ctx, { header: { kid: null } }, 'without kid');
  });

  check('WH-JWT-08', async (ctx) => {
    await expectJwtRefused(ctx, { forge: 'none' }, 'unsigned with alg "none"');
  });

  check('WH-JWT-09', async (ctx) => {
    await expectJwtRefused(ctx, { forge: 'HS256-public' }, 'HS256-signed with the public JWK as secret');
  });

  check('WH-JWT-10', async (ctx) => {
    // Any listed key proves the point; Ed25519 (when listed) is the quickest to generate a twin of.
    const keys = jwtListener(ctx.profile).signingKeys;
    const listed = keys.find((key) => key.alg === 'EdDSA') ?? keys[0]!;
    const impostor = await generateSigningKey(listed.alg, listed.kid);
    await expectJwtRefused(ctx, { key: impostor }, `signed by another ${listed.alg} key under the listed kid "${listed.kid}"`);
  });

  for (const [id, claim] of MISSING_CLAIMS) {
    check(id, async (ctx) => {
      await expectJwtRefused(ctx, { claims: { [claim]: null } }, `without the ${claim} claim`);
    });
  }

  check('WH-JWT-17', async (ctx) => {
    let sub = `https://${ctx.faker.internet.domainName()}`;
    if (sub === ctx.profile.baseUrl) sub += '.invalid';
    await expectJwtRefused(ctx, { claims: { sub } }, `with sub "${sub}" (another tenant)`);
  });

  check('WH-JWT-18', async (ctx) => {
    const own = jwtListener(ctx.profile).listenerId;
    let other = ctx.profile.webhooks.hmac?.listenerId ?? `wh_${ctx.faker.string.alphanumeric(20)}`;
    if (other === own) other += 'x';
    const aud = webhookUrl(ctx.profile, other);
    await expectJwtRefused(ctx, { claims: { aud } }, `with aud "${aud}" (another listener)`);
  });

  check('WH-JWT-19', async (ctx) => {
    await expectJwtRefused(ctx, { claims: { jti: freshEventId() } }, 'whose jti is another UUID v4 than Webhook-Event-Id');
  });

  check('WH-JWT-20', async (ctx) => {
    await expectJwtRefused(ctx, { claims: { htm: 'GET' } }, 'with htm "GET"');
  });

  check('WH-JWT-21', async (ctx) => {
    const body = JSON.stringify(sampleBody(ctx.faker));
    let other = JSON.stringify(sampleBody(ctx.faker));
    while (other === body) other = JSON.stringify(sampleBody(ctx.faker));
    await expectJwtRefused(ctx, { claims: { htb_s256: sha256Base64Url(other) } }, 'whose htb_s256 is the hash of another body', { body });
  });

  check('WH-JWT-22', async (ctx) => {
    await expectJwtRefused(ctx, { expIn: EXP_PAST }, `with exp ${-EXP_PAST} s in the past`);
  });

  check('WH-JWT-23', async (ctx) => {
    await expectJwtRefused(ctx, { expIn: EXP_TOO_FAR }, `with exp ${EXP_TOO_FAR / 60} minutes ahead`);
  });

  check('WH-JWT-24', async (ctx) => {
    const compact = JSON.stringify(sampleBody(ctx.faker));
    const reformatted = JSON.stringify(JSON.parse(compact), null, 2);
    await expectJwtRefused(
      ctx,
      { claims: { htb_s256: sha256Base64Url(compact) } },
      'whose htb_s256 covers the compact JSON while the body sent is the same JSON indented',
      { body: reformatted },
    );
  });

  check('WH-JWT-25', async ({ client }) => {
    const res = await client.sendWebhook('jwtUnreachableJwks', { label: 'webhook jwt: JWKS unreachable' });
    expectStatus(res, 401, 'valid JWT for a listener whose JWKS URL cannot be reached');
  });

  check('WH-JWT-26', async ({ client }) => {
    const res = await client.sendWebhook('jwt', { jwt: { expIn: EXP_INSIDE }, label: 'webhook jwt: exp 8 minutes ahead' });
    expectAccepted(res, `JWT with exp ${EXP_INSIDE / 60} minutes ahead`);
  });

  check('WH-JWT-27', async (ctx) => {
    const body = JSON.stringify(sampleBody(ctx.faker));
    const hex = createHash('sha256').update(body, 'utf8').digest('hex');
    await expectJwtRefused(ctx, { claims: { htb_s256: hex } }, 'whose htb_s256 is the body hash in hex', { body });
  });

  check('WH-JWT-28', async (ctx) => {
    const aud = [webhookUrl(ctx.profile, jwtListener(ctx.profile).listenerId)];
    const res = await ctx.client.sendWebhook('jwt', { jwt: { claims: { aud } }, label: 'webhook jwt: aud as a one-element array' });
    ctx.note(`aud as a one-element array: ${outcome(res)}`);
  });
});
