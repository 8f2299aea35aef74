/**
 * §4.1 Obtain an access token, with the signed client assertion of §5.3 (rulings 3, 4, 5, 7). Each request
 * differs from a valid one in exactly one field, so a refusal has one cause. Refusals (MUST) are any 4xx
 * without an access_token; the RFC 6749 error shapes are separate SHOULD checks.
 */
import type { AssertionOptions, HttpResponse, TokenRequestOptions } from '../src/client/types.js';
import { check, type CheckContext } from './support/check.js';
import { group } from './support/group.js';
import {
  expectField,
  expectJsonContentType,
  expectJsonObject,
  expectStatus,
  expectThat,
  expectTokenRefusal,
  fail,
  jsonType,
} from './support/expect.js';
import {
  expectOAuthError,
  expectTokenIssued,
  foreignSecret,
  secretKeyThumbprint,
  unknownClientId,
} from './support/token-checks.js';
import type { RequirementId } from '../src/requirements/catalogue.js';

async function token(ctx: CheckContext, options: TokenRequestOptions): Promise<HttpResponse> {
  return ctx.client.requestToken(options);
}

/** A client assertion that differs from the valid default only by `assertion`; it must get a token. */
async function assertionAccepted(ctx: CheckContext, assertion: AssertionOptions, what: string): Promise<void> {
  const res = await token(ctx, { method: 'assertion', assertion, label: what });
  expectTokenIssued(res, ctx.client.recorder, what);
}

/** A client assertion that differs from the valid default only by `assertion`; it must be refused. */
async function assertionRefused(ctx: CheckContext, assertion: AssertionOptions, what: string): Promise<void> {
  const res = await token(ctx, { method: 'assertion', assertion, label: what });
  expectTokenRefusal(res, what);
}

/** Ruling 4's shape checks on one response, shared by TOK-19..22 and TOK-24. */
function tokenBody(res: HttpResponse, what: string): Record<string, unknown> {
  expectStatus(res, 200, what);
  expectJsonContentType(res, what);
  return expectJsonObject(res, what);
}

function expectAccessTokenField(body: Record<string, unknown>, what: string): void {
  const value = expectField(body, 'access_token', what);
  expectThat(typeof value === 'string' && value !== '', `${what}: access_token is not a non-empty string`, 'a non-empty string',
    typeof value === 'string' ? 'empty string' : jsonType(value));
}

function expectTokenType(body: Record<string, unknown>, what: string): void {
  const value = expectField(body, 'token_type', what);
  if (typeof value !== 'string') fail(`${what}: token_type is not a string`, '"Bearer"', jsonType(value));
  expectThat(value.toLowerCase() === 'bearer', `${what}: token_type is not Bearer`, '"Bearer" (any case)', JSON.stringify(value.slice(0, 40)));
}

function expectExpiresIn(body: Record<string, unknown>, what: string): void {
  const value = expectField(body, 'expires_in', what);
  expectThat(typeof value === 'number' && Number.isInteger(value) && value > 0, `${what}: expires_in is not a JSON integer > 0`,
    'a JSON integer > 0', typeof value === 'number' ? String(value) : `${jsonType(value)} ${JSON.stringify(value)?.slice(0, 40)}`);
}

group.concurrent('§4.1 Obtain an access token', () => {
  // Grant methods
  check('TOK-01', async (ctx) => {
    const res = await token(ctx, { method: 'secret', label: 'basic method' });
    expectTokenIssued(res, ctx.client.recorder, 'basic-method token request');
  });

  check('TOK-02', async (ctx) => {
    await assertionAccepted(ctx, { nbfIn: null }, 'client assertion with aud string, exp +2 min, iat');
  });

  // Assertion variants that must pass
  check('TOK-03', async (ctx) => {
    await assertionAccepted(ctx, { aud: [ctx.profile.tenantDomain] }, 'client assertion with aud as a one-element array');
  });

  check('TOK-04', async (ctx) => {
    await assertionAccepted(ctx, { nbfIn: -120, expIn: 120 }, 'client assertion with nbf now-2 min and exp now+2 min');
  });

  check('TOK-05', async (ctx) => {
    const nonce = ctx.faker.string.alphanumeric(24);
    await assertionAccepted(ctx, { header: { nonce } }, 'client assertion with a nonce header');
  });

  check('TOK-06', async (ctx) => {
    const kid = secretKeyThumbprint(ctx.profile.credentials.primary.clientSecret);
    await assertionAccepted(ctx, { header: { kid } }, 'client assertion with a kid header');
  });

  check('TOK-07', async (ctx) => {
    await assertionAccepted(ctx, { header: { typ: 'JWT' } }, 'client assertion with typ JWT');
  });

  check('TOK-08', async (ctx) => {
    await assertionAccepted(ctx, { iat: null, nbfIn: null }, 'client assertion without iat and nbf');
  });

  // Assertion variants that must fail
  check('TOK-09', async (ctx) => {
    await assertionRefused(ctx, { expIn: null }, 'client assertion without exp');
  });

  check('TOK-10', async (ctx) => {
    await assertionRefused(ctx, { expIn: 600 }, 'client assertion with exp 10 minutes ahead');
  });

  check('TOK-11', async (ctx) => {
    // Well past any usual leeway (30–60 s); nbf and iat moved back too so that only exp is wrong.
    const now = Math.floor(await ctx.client.now());
    await assertionRefused(ctx, { now, expIn: -150, nbfIn: -300, iat: now - 300 }, 'client assertion with exp in the past');
  });

  check('TOK-12', async (ctx) => {
    let other = `${ctx.faker.internet.domainWord()}.example.net`;
    if (other === ctx.profile.tenantDomain) other = `other.${other}`;
    await assertionRefused(ctx, { aud: other }, 'client assertion with aud of another domain');
  });

  check('TOK-13', async (ctx) => {
    await assertionRefused(ctx, { aud: `https://${ctx.profile.tenantDomain}` }, 'client assertion with aud carrying a scheme');
  });

  check('TOK-14', async (ctx) => {
    await assertionRefused(ctx, { aud: `${ctx.profile.tenantDomain}:443` }, 'client assertion with aud carrying a port');
  });

  check('TOK-15', async (ctx) => {
    const iss = unknownClientId(ctx.profile.credentials.primary.clientId, ctx.faker);
    await assertionRefused(ctx, { iss }, 'client assertion with iss another Client ID');
  });

  check('TOK-16', async (ctx) => {
    const sub = unknownClientId(ctx.profile.credentials.primary.clientId, ctx.faker);
    await assertionRefused(ctx, { sub }, 'client assertion with sub another Client ID');
  });

  check('TOK-17', async (ctx) => {
    await assertionRefused(ctx, { otherKey: true }, 'client assertion signed by another key');
  });

  check('TOK-18', async (ctx) => {
    await assertionRefused(ctx, { algNone: true }, 'unsigned client assertion (alg none)');
  });

  // Response shape
  check('TOK-19', async (ctx) => {
    const what = 'basic-method token response';
    tokenBody(await token(ctx, { method: 'secret', label: what }), what);
  });

  check('TOK-20', async (ctx) => {
    const what = 'basic-method token response';
    expectAccessTokenField(tokenBody(await token(ctx, { method: 'secret', label: what }), what), what);
  });

  check('TOK-21', async (ctx) => {
    const what = 'basic-method token response';
    expectTokenType(tokenBody(await token(ctx, { method: 'secret', label: what }), what), what);
  });

  check('TOK-22', async (ctx) => {
    const what = 'basic-method token response';
    expectExpiresIn(tokenBody(await token(ctx, { method: 'secret', label: what }), what), what);
  });

  check('TOK-23', async (ctx) => {
    const what = 'basic-method token response';
    const res = await token(ctx, { method: 'secret', label: what });
    expectStatus(res, 200, what);
    const value = res.headers['cache-control'];
    const directives = (value ?? '').split(',').map((part) => part.trim().toLowerCase());
    expectThat(directives.includes('no-store'), `${what}: Cache-Control has no no-store directive`, 'Cache-Control: no-store',
      value === undefined ? '(no Cache-Control header)' : `Cache-Control: ${value}`);
  });

  check('TOK-24', async (ctx) => {
    const what = 'assertion-method token response';
    const body = tokenBody(await token(ctx, { method: 'assertion', label: what }), what);
    expectAccessTokenField(body, what);
    expectTokenType(body, what);
    expectExpiresIn(body, what);
  });

  // Refusals
  check('TOK-25', async (ctx) => {
    const what = 'token request with a wrong client_secret';
    const clientSecret = foreignSecret(ctx.profile.credentials.primary.clientSecret, ctx.client.recorder);
    expectTokenRefusal(await token(ctx, { method: 'secret', clientSecret, label: what }), what);
  });

  check('TOK-26', async (ctx) => {
    const what = 'token request with a wrong client_secret';
    const clientSecret = foreignSecret(ctx.profile.credentials.primary.clientSecret, ctx.client.recorder);
    expectOAuthError(await token(ctx, { method: 'secret', clientSecret, label: what }), [{ status: 401, error: 'invalid_client' }], what);
  });

  check('TOK-27', async (ctx) => {
    const what = 'token request with an unknown client_id';
    const clientId = unknownClientId(ctx.profile.credentials.primary.clientId, ctx.faker);
    expectTokenRefusal(await token(ctx, { method: 'secret', clientId, label: what }), what);
  });

  check('TOK-28', async (ctx) => {
    const what = 'token request with an unknown client_id';
    const clientId = unknownClientId(ctx.profile.credentials.primary.clientId, ctx.faker);
    expectOAuthError(await token(ctx, { method: 'secret', clientId, label: what }), [{ status: 401, error: 'invalid_client' }], what);
  });

  check('TOK-29', async (ctx) => {
    const what = 'token request with grant_type=password';
    expectTokenRefusal(await token(ctx, { method: 'secret', form: { grant_type: 'password' }, label: what }), what);
  });

  check('TOK-30', async (ctx) => {
    const what = 'token request with grant_type=password';
    const res = await token(ctx, { method: 'secret', form: { grant_type: 'password' }, label: what });
    expectOAuthError(res, [{ status: 400, error: 'unsupported_grant_type' }], what);
  });

  check('TOK-31', async (ctx) => {
    const what = 'token request without grant_type';
    expectTokenRefusal(await token(ctx, { method: 'secret', form: { grant_type: null }, label: what }), what);
  });

  check('TOK-32', async (ctx) => {
    const what = 'token request without grant_type';
    const res = await token(ctx, { method: 'secret', form: { grant_type: null }, label: what });
    expectOAuthError(res, [{ status: 400, error: 'invalid_request' }], what);
  });

  check('TOK-33', async (ctx) => {
    const what = 'token request with a JSON body';
    expectTokenRefusal(await token(ctx, { method: 'secret', asJson: true, label: what }), what);
  });

  check('TOK-34', async (ctx) => {
    const what = 'token request with a JSON body';
    expectOAuthError(await token(ctx, { method: 'secret', asJson: true, label: what }), [{ status: 400, error: 'invalid_request' }], what);
  });

  check('TOK-35', async (ctx) => {
    const what = 'token request without client_id';
    expectTokenRefusal(await token(ctx, { method: 'secret', form: { client_id: null }, label: what }), what);
  });

  check('TOK-36', async (ctx) => {
    const what = 'token request without client_id';
    const res = await token(ctx, { method: 'secret', form: { client_id: null }, label: what });
    expectOAuthError(res, [{ status: 400, error: 'invalid_request' }, { status: 401, error: 'invalid_client' }], what);
  });

  // Restricted credentials
  const restricted: Array<[RequirementId, 'secret' | 'assertion', 'ipRestricted' | 'expired', string]> = [
    ['TOK-37', 'secret', 'ipRestricted', 'basic-method token request for the IP-restricted credential'],
    ['TOK-38', 'assertion', 'ipRestricted', 'assertion-method token request for the IP-restricted credential'],
    ['TOK-39', 'secret', 'expired', 'basic-method token request for the expired credential'],
    ['TOK-40', 'assertion', 'expired', 'assertion-method token request for the expired credential'],
  ];
  for (const [id, method, credential, what] of restricted) {
    check(id, async (ctx) => expectTokenRefusal(await token(ctx, { method, credential, label: what }), what));
  }

  check('TOK-41', async (ctx) => {
    const what = 'client assertion with client_assertion_type saml2-bearer';
    const form = { client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer' };
    expectTokenRefusal(await token(ctx, { method: 'assertion', form, label: what }), what);
  });
});
