/**
 * §4.1 / §5.3 against known attacks (docs/attacks.md): client assertions carrying or pointing at an
 * attacker's key, `kid` injection, `crit`, EdDSA signature edge cases, inexact `iss`/`sub` comparison,
 * NumericDate claims of another type (rulings 25, 31), and client credentials outside the form body. Each
 * check sends the variants of its attack concurrently; every one must be refused (ruling 5: any 4xx and no
 * access_token).
 */
import type { AssertionOptions, HttpResponse, TokenRequestOptions } from '../src/client/types.js';
import { buildClientAssertion, spliceSignature, toPublicJwk, type SignatureTamper } from '../src/crypto/index.js';
import { check, type CheckContext } from './support/check.js';
import { group } from './support/group.js';
import { isClientError } from './support/expect.js';
import {
  attackerKeys,
  certifiedSigningKey,
  expectEveryVariantRefused,
  keyUrlBaits,
  kidBaits,
  withBait,
  type Variant,
} from './support/jwt-attacks.js';
import { expectControlTokenIssued, secretKeyThumbprint } from './support/token-checks.js';

function refusedWithoutToken(res: HttpResponse): boolean {
  const body = res.json();
  return isClientError(res.status) && !(typeof body === 'object' && body !== null && 'access_token' in body);
}

async function expectAllRefused(variants: readonly Variant[]): Promise<void> {
  await expectEveryVariantRefused(variants, refusedWithoutToken, 'a 4xx without access_token for every variant');
}

function request(ctx: CheckContext, what: string, options: Omit<TokenRequestOptions, 'label'>): Variant {
  return { what, send: () => ctx.client.requestToken({ ...options, label: `token attack: ${what}` }) };
}

function assertion(ctx: CheckContext, what: string, options: AssertionOptions): Variant {
  return request(ctx, what, { method: 'assertion', assertion: options });
}

/** Client IDs that differ from the primary's only in how they compare, plus another credential's. */
function nearClientIds(ctx: CheckContext): Array<[string, string]> {
  const own = ctx.profile.credentials.primary.clientId;
  const at = own.indexOf('@');
  const upper = at > 0 ? own.slice(0, at).toUpperCase() + own.slice(at) : own.toUpperCase();
  const ids: Array<[string, string]> = [
    ['the Client ID in upper case', upper === own ? own.toUpperCase() : upper],
    ['the Client ID with a suffix', `${own}x`],
    ['a prefix of the Client ID', own.slice(0, -1)],
  ];
  const other = ctx.profile.credentials.ipRestricted ?? ctx.profile.credentials.expired;
  if (other && other.clientId !== own) ids.push(['another credential\'s Client ID', other.clientId]);
  return ids.filter(([, id]) => id !== own);
}

group('§4.1 / §5.3 Token endpoint: known attacks', () => {
  check('TOK-X01', async (ctx) => {
    const keys = await attackerKeys();
    const thumbprint = secretKeyThumbprint(ctx.profile.credentials.primary.clientSecret);
    const certified = certifiedSigningKey(keys.certified);
    await expectAllRefused([
      assertion(ctx, 'jwk header holding the signing key', { key: keys.own, header: { jwk: toPublicJwk(keys.own) } }),
      assertion(ctx, 'jwk header holding the signing key, kid of the secret\'s key', { key: keys.own, header: { jwk: toPublicJwk(keys.own), kid: thumbprint } }),
      assertion(ctx, 'x5c header certifying the signing key (ES256)', { key: certified, header: { alg: 'ES256', x5c: keys.certified.x5c } }),
    ]);
  });

  check('TOK-X02', async (ctx) => {
    const keys = await attackerKeys();
    await withBait(keys, 'client assertions with jku / x5u headers', (bait) =>
      expectAllRefused(keyUrlBaits(keys, bait).map(({ what, ...options }) => assertion(ctx, what, options))));
  });

  check('TOK-X03', async (ctx) => {
    const keys = await attackerKeys();
    await withBait(keys, 'a client assertion whose kid is a URL', (bait) =>
      expectAllRefused(kidBaits(keys, bait).map(({ what, ...options }) => assertion(ctx, what, options))));
  });

  check('TOK-X04', async (ctx) => {
    const name = `x-ac-${ctx.faker.string.alphanumeric(8).toLowerCase()}`;
    await expectAllRefused([assertion(ctx, `crit ["${name}"], signed by the secret's key`, { header: { crit: [name], [name]: true } })]);
  });

  check('TOK-X05', async (ctx) => {
    const tampers: SignatureTamper[] = ['append', 'truncate'];
    await expectAllRefused(tampers.map((tamper) => assertion(ctx, `EdDSA signature tampered "${tamper}"`, { tamper })));
  });

  check('TOK-X06', async (ctx) => {
    const credential = ctx.profile.credentials.primary;
    const now = Math.floor(await ctx.client.now());
    const base = { clientId: credential.clientId, clientSecret: credential.clientSecret, audience: ctx.profile.tenantDomain, now };
    const donor = await buildClientAssertion({ ...base, claims: { jti: ctx.faker.string.uuid() } });
    const recipient = await buildClientAssertion({ ...base, claims: { jti: ctx.faker.string.uuid() } });
    ctx.client.recorder.addSecret(donor);
    // The donor is used first and succeeds, so a verifier that remembers good signatures has seen it.
    const first = await ctx.client.requestToken({ method: 'assertion', form: { client_assertion: donor }, label: 'token attack: the donor assertion (valid)' });
    expectControlTokenIssued(first, ctx.client.recorder, 'control: the valid assertion whose signature is reused');
    const spliced = spliceSignature(recipient, donor);
    await expectAllRefused([request(ctx, 'assertion carrying the signature of another (valid) assertion', { method: 'assertion', form: { client_assertion: spliced } })]);
  });

  check('TOK-X07', async (ctx) => {
    await expectAllRefused(nearClientIds(ctx).map(([what, iss]) => assertion(ctx, `iss: ${what} (sub right)`, { iss })));
  });

  check('TOK-X08', async (ctx) => {
    await expectAllRefused(nearClientIds(ctx).map(([what, sub]) => assertion(ctx, `sub: ${what} (iss right)`, { sub })));
  });

  check('TOK-X09', async (ctx) => {
    await expectAllRefused([request(ctx, 'client_id and client_secret only in Authorization: Basic', { method: 'secret', credentialsIn: 'basic' })]);
  });

  check('TOK-X10', async (ctx) => {
    await expectAllRefused([
      request(ctx, 'client_id and client_secret only in the query string', { method: 'secret', credentialsIn: 'query' }),
      request(ctx, 'client_id and the client assertion only in the query string', { method: 'assertion', credentialsIn: 'query' }),
    ]);
  });

  // A JSON null has to be written: `claims: { exp: null }` would name a claim the builder may drop.
  const withNull = (claim: string) => ({ serialize: (claims: Record<string, unknown>) => JSON.stringify({ ...claims, [claim]: null }) });

  check('TOK-X11', async (ctx) => {
    await expectAllRefused([
      assertion(ctx, 'exp as a non-numeric string', { claims: { exp: 'tomorrow' } }),
      assertion(ctx, 'exp as an object', { claims: { exp: { seconds: 1 } } }),
      assertion(ctx, 'exp as an array', { claims: { exp: [] } }),
      assertion(ctx, 'exp as null', withNull('exp')),
      assertion(ctx, 'nbf as a non-numeric string', { claims: { nbf: 'yesterday' } }),
      assertion(ctx, 'nbf as an object', { claims: { nbf: {} } }),
      assertion(ctx, 'nbf as an array', { claims: { nbf: [1] } }),
    ]);
  });

  check('TOK-X12', async (ctx) => {
    // Ruling 31: a null optional claim is SHOULD (go-jose v2 and golang-jwt v5 read it as absent).
    await expectAllRefused([assertion(ctx, 'nbf as null', withNull('nbf')), assertion(ctx, 'iat as null', withNull('iat'))]);
  });
});
