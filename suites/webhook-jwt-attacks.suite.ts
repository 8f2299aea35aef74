/**
 * §5.4 JWT against known attacks on JWT verifiers (docs/attacks.md). Every request is a valid webhook
 * whose JWT carries one attack; each check sends the variants of its attack concurrently and expects 401
 * for every one. Values meant to be refused come from the check's seeded faker; event IDs are fresh.
 */
import type { HttpResponse, WebhookJwtOptions } from '../src/client/types.js';
import { setServedExtraKeys } from '../src/client/jwks-control.js';
import { buildWebhookClaims, duplicateClaims, generateSigningKey, signWebhookJwt, spliceSignature, toPublicJwk, type SignatureTamper } from '../src/crypto/index.js';
import type { JwtAlg, SigningJwk } from '../src/profile/types.js';
import { check, type CheckContext } from './support/check.js';
import { group } from './support/group.js';
import { expectThat } from './support/expect.js';
import {
  attackerKeys,
  certifiedSigningKey,
  expectEveryVariantRefused,
  sendRetryingReset,
  keyUrlBaits,
  kidBaits,
  withBait,
  type Variant,
} from './support/jwt-attacks.js';
import { expectSetupAccepted, POLL_MS, sleep } from './support/webhook-expect.js';
import { freshEventId, jwtListener, sampleBody, upperCaseHost, webhookUrl } from './support/webhook-values.js';

/** How long a key rotated into the JWKS may take to be accepted, and how often to try (WH-JWT-X19). */
const ROTATION_DEADLINE_MS = 20_000;

const is401 = (res: HttpResponse): boolean => res.status === 401;

/** One attack variant: a valid webhook to the JWT listener whose JWT is built with these options. */
function variant(ctx: CheckContext, what: string, jwt: WebhookJwtOptions): Variant {
  return { what, send: () => ctx.client.sendWebhook('jwt', { jwt, label: `webhook jwt attack: ${what}` }) };
}

async function expectAll401(variants: readonly Variant[]): Promise<void> {
  await expectEveryVariantRefused(variants, is401, 'status 401 for every variant');
}

function listedKeys(ctx: CheckContext): SigningJwk[] {
  return jwtListener(ctx.profile).signingKeys;
}

function keyOf(ctx: CheckContext, alg: JwtAlg): SigningJwk | undefined {
  return listedKeys(ctx).find((key) => key.alg === alg);
}

/** The claims the client would build, for checks that sign themselves (splicing, serialising). */
async function validClaims(ctx: CheckContext, eventId: string, body: string): Promise<Record<string, unknown>> {
  return buildWebhookClaims({
    baseUrl: ctx.profile.baseUrl,
    webhookUrl: webhookUrl(ctx.profile, jwtListener(ctx.profile).listenerId),
    eventId,
    body: Buffer.from(body, 'utf8'),
    now: Math.floor(await ctx.client.now()),
  });
}

const listenerAud = (ctx: CheckContext): string => webhookUrl(ctx.profile, jwtListener(ctx.profile).listenerId);

group('§5.4 Webhook JWT: known attacks', () => {
  check('WH-JWT-X01', async (ctx) => {
    const keys = await attackerKeys();
    const listed = keyOf(ctx, 'EdDSA') ?? listedKeys(ctx)[0]!;
    const impostor = await generateSigningKey(listed.alg, listed.kid);
    const certified = certifiedSigningKey(keys.certified);
    await expectAll401([
      variant(ctx, 'jwk header holding the signing key, its own kid', { key: keys.own, header: { jwk: toPublicJwk(keys.own) } }),
      variant(ctx, `jwk header holding the signing key, listed kid "${listed.kid}"`, { key: impostor, header: { jwk: toPublicJwk(impostor) } }),
      variant(ctx, 'x5c header certifying the signing key', { key: certified, header: { x5c: keys.certified.x5c } }),
      variant(ctx, `x5c header certifying the signing key, listed kid "${listed.kid}"`,
        { key: { ...certified, kid: listed.kid }, header: { x5c: keys.certified.x5c } }),
    ]);
  });

  check('WH-JWT-X02', async (ctx) => {
    const keys = await attackerKeys();
    await withBait(keys, 'JWTs with jku / x5u headers', (bait) =>
      expectAll401(keyUrlBaits(keys, bait).map(({ what, ...jwt }) => variant(ctx, what, jwt))));
  });

  check('WH-JWT-X03', async (ctx) => {
    const keys = await attackerKeys();
    await withBait(keys, 'a JWT whose kid is a URL', (bait) =>
      expectAll401([
        ...kidBaits(keys, bait).map(({ what, ...jwt }) => variant(ctx, what, jwt)),
        variant(ctx, 'empty kid, signed by a listed key', { header: { kid: '' } }),
      ]));
  });

  check('WH-JWT-X04', async (ctx) => {
    const name = `x-ac-${ctx.faker.string.alphanumeric(8).toLowerCase()}`;
    await expectAll401(listedKeys(ctx).map((key) =>
      variant(ctx, `crit ["${name}"] on a ${key.alg} JWT signed by a listed key`, { kid: key.kid, header: { crit: [name], [name]: true } })));
  });

  check('WH-JWT-X05', async (ctx) => {
    const rsa = keyOf(ctx, 'RS256')!;
    const ec = keyOf(ctx, 'ES256')!;
    const ed = keyOf(ctx, 'EdDSA');
    const variants = [variant(ctx, `kid of the RSA key with alg ES256 (signed by the listed EC key)`, { kid: ec.kid, header: { kid: rsa.kid } })];
    if (ed) {
      variants.push(variant(ctx, 'kid of the EC key with alg EdDSA (signed by the listed Ed25519 key)', { kid: ed.kid, header: { kid: ec.kid } }));
      variants.push(variant(ctx, 'kid of the Ed25519 key with alg RS256 (signed by the listed RSA key)', { kid: rsa.kid, header: { kid: ed.kid } }));
    }
    await expectAll401(variants);
  });

  const es256Tampers = (ctx: CheckContext, tampers: SignatureTamper[]): Variant[] =>
    tampers.map((tamper) => variant(ctx, `ES256 signature tampered "${tamper}"`, { alg: 'ES256', tamper }));

  check('WH-JWT-X06', async (ctx) => {
    await expectAll401(es256Tampers(ctx, ['zero', 'r-zero', 's-zero']));
  });

  check('WH-JWT-X07', async (ctx) => {
    await expectAll401(es256Tampers(ctx, ['r-order', 's-order']));
  });

  check('WH-JWT-X08', async (ctx) => {
    await expectAll401(es256Tampers(ctx, ['der']));
  });

  check('WH-JWT-X09', async (ctx) => {
    const tampers: SignatureTamper[] = ['append', 'truncate'];
    await expectAll401(listedKeys(ctx).flatMap((key) =>
      tampers.map((tamper) => variant(ctx, `${key.alg} signature tampered "${tamper}"`, { kid: key.kid, tamper }))));
  });

  check('WH-JWT-X10', async (ctx) => {
    const key = keyOf(ctx, 'EdDSA')!;
    const first = { eventId: freshEventId(), body: JSON.stringify(sampleBody(ctx.faker)) };
    const second = { eventId: freshEventId(), body: JSON.stringify(sampleBody(ctx.faker)) };
    const donor = await signWebhookJwt({ key, claims: await validClaims(ctx, first.eventId, first.body) });
    const recipient = await signWebhookJwt({ key, claims: await validClaims(ctx, second.eventId, second.body) });
    ctx.client.recorder.addSecret(donor);
    // The donor is sent first and accepted, so a verifier that remembers good signatures has seen it.
    const accepted = await ctx.client.sendWebhook('jwt', { ...first, jwt: { authorization: `Bearer ${donor}` }, label: 'webhook jwt attack: the donor JWT (valid)' });
    expectSetupAccepted(accepted, 'the valid EdDSA JWT whose signature is reused');
    const spliced = spliceSignature(recipient, donor);
    const what = 'EdDSA JWT carrying the signature of another (valid) JWT';
    await expectAll401([{ what, send: () => ctx.client.sendWebhook('jwt', { ...second, jwt: { authorization: `Bearer ${spliced}` }, label: `webhook jwt attack: ${what}` }) }]);
  });

  check('WH-JWT-X11', async (ctx) => {
    const now = Math.floor(await ctx.client.now());
    await expectAll401([
      variant(ctx, 'exp as a string of a valid time', { claims: { exp: String(now + 300) } }),
      variant(ctx, 'exp as true', { claims: { exp: true } }),
      variant(ctx, 'nbf as a string of a past time', { claims: { nbf: String(now - 60) } }),
      variant(ctx, 'iat as a string of the current time', { claims: { iat: String(now) } }),
      variant(ctx, 'iat as false', { claims: { iat: false } }),
    ]);
  });

  check('WH-JWT-X20', async (ctx) => {
    await expectAll401([
      variant(ctx, 'exp as a non-numeric string', { claims: { exp: 'tomorrow' } }),
      variant(ctx, 'exp as an object', { claims: { exp: { seconds: 1 } } }),
      variant(ctx, 'exp as an array', { claims: { exp: [] } }),
      // `claims: { exp: null }` removes the claim; a JSON null has to be written.
      variant(ctx, 'exp as null', { serialize: (claims) => JSON.stringify({ ...claims, exp: null }) }),
      variant(ctx, 'nbf as a non-numeric string', { claims: { nbf: 'yesterday' } }),
      variant(ctx, 'nbf as an object', { claims: { nbf: {} } }),
      variant(ctx, 'nbf as an array', { claims: { nbf: [1] } }),
    ]);
  });

  check('WH-JWT-X22', async (ctx) => {
    // Ruling 31: a null optional claim is SHOULD (go-jose v2 and golang-jwt v5 read it as absent).
    await expectAll401([
      variant(ctx, 'nbf as null', { serialize: (claims) => JSON.stringify({ ...claims, nbf: null }) }),
      variant(ctx, 'iat as null', { serialize: (claims) => JSON.stringify({ ...claims, iat: null }) }),
    ]);
  });

  check('WH-JWT-X21', async (ctx) => {
    // A reader that coerces numeric strings (PyJWT) must still enforce the time the string denotes.
    const now = Math.floor(await ctx.client.now());
    await expectAll401([
      variant(ctx, 'exp as a string of a time a minute past', { claims: { exp: String(now - 60) } }),
      variant(ctx, 'nbf as a string of a time 5 minutes ahead', { claims: { nbf: String(now + 300) } }),
    ]);
  });

  check('WH-JWT-X12', async (ctx) => {
    // 1e400 is valid JSON that most parsers read as Infinity; JSON.stringify cannot write it.
    const infinite = (claims: Record<string, unknown>): string => JSON.stringify({ ...claims, exp: 0 }).replace('"exp":0', '"exp":1e400');
    await expectAll401([
      variant(ctx, 'exp 1e300', { claims: { exp: 1e300 } }),
      variant(ctx, 'exp 2^53 + 1', { claims: { exp: 2 ** 53 + 1 } }),
      variant(ctx, 'exp 1e400', { serialize: infinite }),
      variant(ctx, 'exp -1', { claims: { exp: -1 } }),
    ]);
  });

  check('WH-JWT-X13', async (ctx) => {
    const now = Math.floor(await ctx.client.now());
    await expectAll401([variant(ctx, 'nbf 5 minutes ahead', { claims: { nbf: now + 300 } })]);
  });

  check('WH-JWT-X14', async (ctx) => {
    const aud = listenerAud(ctx);
    const auds: Array<[string, string]> = [
      ['trailing slash', `${aud}/`],
      ['upper-case host', upperCaseHost(aud)],
      ['a suffix', `${aud}x`],
      ['a query', `${aud}?listener=1`],
      ['a prefix', aud.slice(0, -1)],
      ['the tenant base URL', ctx.profile.baseUrl],
    ];
    await expectAll401(auds.map(([what, value]) => variant(ctx, `aud: listener URL with ${what}`, { claims: { aud: value } })));
  });

  check('WH-JWT-X15', async (ctx) => {
    const base = ctx.profile.baseUrl;
    const subs: Array<[string, string]> = [
      ['trailing slash', `${base}/`],
      ['upper-case host', upperCaseHost(base)],
      ['suffix "x"', `${base}x`],
      ['another domain after it', `${base}.evil.example`],
      ['a path', `${base}/api/v1`],
      ['a prefix', base.slice(0, -1)],
    ];
    await expectAll401(subs.map(([what, value]) => variant(ctx, `sub: base URL with ${what}`, { claims: { sub: value } })));
  });

  check('WH-JWT-X16', async (ctx) => {
    const own = jwtListener(ctx.profile).listenerId;
    const other = webhookUrl(ctx.profile, ctx.profile.webhooks.hmac?.listenerId ?? `${own}-other`);
    await expectAll401([
      variant(ctx, 'aud [listener URL, another listener\'s URL]', { claims: { aud: [listenerAud(ctx), other] } }),
      variant(ctx, 'aud [another listener\'s URL, listener URL]', { claims: { aud: [other, listenerAud(ctx)] } }),
    ]);
  });

  const duplicated = async (ctx: CheckContext, order: 'wrong-first' | 'wrong-last'): Promise<Variant[]> => {
    const other = webhookUrl(ctx.profile, `${jwtListener(ctx.profile).listenerId}-other`);
    const wrong: Record<string, unknown> = {
      aud: other,
      sub: `https://${ctx.faker.internet.domainName()}.invalid`,
      jti: freshEventId(),
      htb_s256: 'A'.repeat(43),
    };
    return Object.entries(wrong).map(([name, value]) =>
      variant(ctx, `${name} repeated, the ${order === 'wrong-last' ? 'last' : 'first'} one wrong`, {
        serialize: (claims) => duplicateClaims(claims, { [name]: value }, order),
      }));
  };

  check('WH-JWT-X17', async (ctx) => {
    await expectAll401(await duplicated(ctx, 'wrong-last'));
  });

  check('WH-JWT-X18', async (ctx) => {
    await expectAll401(await duplicated(ctx, 'wrong-first'));
  });

  check('WH-JWT-X19', async (ctx) => {
    const control = ctx.run.jwksControl!;
    const rotated = await generateSigningKey('EdDSA', `rotated-${ctx.faker.string.alphanumeric(12)}`);
    await setServedExtraKeys(control, [rotated]);
    // What this waits for: the target to fetch the JWKS again and find the new kid. A target that refetches
    // on an unknown kid (rate-limited: the reference at most once a second) takes one poll or a few seconds; a
    // 401 consumes nothing (ruling 17), so each try is a fresh valid webhook. Polled, never a fixed sleep.
    const started = Date.now();
    let last: HttpResponse | undefined;
    let tries = 0;
    while (Date.now() - started < ROTATION_DEADLINE_MS) {
      tries += 1;
      const label = `webhook jwt: key rotated in (try ${tries})`;
      last = await sendRetryingReset(() => ctx.client.sendWebhook('jwt', { jwt: { key: rotated }, label }));
      if (last.status === 200) break;
      await sleep(POLL_MS);
    }
    ctx.note(`key rotated in: ${last?.status === 200 ? `accepted after ${Date.now() - started} ms (${tries} tries)` : `not accepted in ${tries} tries`}`);
    expectThat(last?.status === 200, `a JWT signed by a key added to the JWKS under a new kid was not accepted within ${ROTATION_DEADLINE_MS / 1000} s`,
      '200 once the new key is served', `status ${last?.status ?? '(none)'} after ${tries} tries`);
  }, { timeout: ROTATION_DEADLINE_MS + 15_000 });
});
