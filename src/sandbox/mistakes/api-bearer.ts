/**
 * The API's bearer checks (service.md §4.2, §5.1; RFC 6750): where the access token goes and what it must
 * be. A token is told apart only by what this process saw issued (issued-tokens.ts): expired here, or
 * issued by another tenant; a Client Secret or a JWT sent as the bearer is recognised by its form.
 */
import { sha256Base64Url } from '../../crypto/encoding.js';
import type { RefusedRequest } from '../refused-request.js';
import { firstPresent, offsetWords, schemeShown } from './shown.js';
import type { Mistake, MistakeArea } from './types.js';

const NO_TOKEN = { status: 401, says: 'an access token is required' };
const NOT_BEARER = { status: 401, says: 'the Authorization header is not a Bearer token' };
const UNKNOWN = { status: 401, says: 'the access token is unknown or expired' };
const OTHER_HEADERS = ['x-access-token', 'x-api-key', 'access-token', 'token', 'x-auth-token', 'api-key'];

const authorization = (refused: RefusedRequest): string => (refused.header('authorization') ?? '').trim();
const bearerToken = (refused: RefusedRequest): string => /^bearer\s+(\S+)$/i.exec(authorization(refused))?.[1] ?? '';

const mistakes: readonly Mistake[] = [
  {
    code: 'bearer-token-in-query',
    explains: [NO_TOKEN],
    checks: 'the query',
    detect: (refused) => (refused.query.has('access_token') || refused.query.has('token') ? {} : undefined),
    sentence: 'the access token came in the query string: send it in the header "Authorization: Bearer <token>" (a URL ends up in logs)',
  },
  {
    code: 'bearer-token-other-header',
    explains: [NO_TOKEN],
    checks: 'other headers',
    detect: (refused) => {
      const seen = firstPresent(refused.request.headers, OTHER_HEADERS);
      return seen === undefined ? undefined : { seen };
    },
    sentence: 'the access token came in a header "{seen}": send it as "Authorization: Bearer <token>"',
  },
  {
    code: 'bearer-missing',
    explains: [NO_TOKEN],
    checks: 'Authorization',
    detect: () => ({}),
    sentence: 'the request has no access token: get one from POST /auth/v1/token and send "Authorization: Bearer <token>"',
  },
  {
    code: 'bearer-prefix-missing',
    explains: [NOT_BEARER],
    checks: 'the Bearer prefix',
    detect: (refused) => (/^[A-Za-z0-9\-._~+/]+=*$/.test(authorization(refused)) ? {} : undefined),
    sentence: 'Authorization holds the bare token: send "Authorization: Bearer <token>"',
  },
  {
    code: 'bearer-basic-auth',
    explains: [NOT_BEARER],
    checks: 'Basic',
    detect: (refused) => (/^basic\s/i.test(authorization(refused)) ? {} : undefined),
    sentence: 'Authorization is Basic: the API takes no client credentials, only an access token from POST /auth/v1/token, as "Bearer <token>"',
  },
  {
    code: 'bearer-client-secret',
    explains: [NOT_BEARER, UNKNOWN],
    checks: 'Client Secrets',
    detect: (refused) => {
      const hash = sha256Base64Url(bearerToken(refused));
      return Object.values(refused.tenant.credentials).some((c) => c.config.secretSha256 === hash) ? {} : undefined;
    },
    sentence: 'the bearer value is a Client Secret: exchange it at POST /auth/v1/token for an access token, and send that',
  },
  {
    code: 'bearer-scheme-other',
    explains: [NOT_BEARER],
    checks: 'the scheme',
    detect: (refused) => ({ scheme: schemeShown(authorization(refused)) }),
    sentence: 'Authorization uses the scheme {scheme}, or the token has characters a bearer token cannot have (quotes, blanks): send "Bearer <token>" as the token endpoint gave it',
  },
  {
    code: 'bearer-token-expired',
    explains: [UNKNOWN],
    checks: 'expiry',
    detect: (refused) => {
      const issued = refused.sandbox.issued.find(sha256Base64Url(bearerToken(refused)));
      return issued === undefined || issued.baseUrl !== refused.tenant.baseUrl ? undefined : { offset: offsetWords(issued.expiresAt, refused.now) };
    },
    sentence: "the access token expired (its expiry is {offset} the server's time): get a new one before expires_in runs out",
  },
  {
    code: 'bearer-token-other-tenant',
    explains: [UNKNOWN],
    checks: 'other tenants',
    detect: (refused) => {
      const issued = refused.sandbox.issued.find(sha256Base64Url(bearerToken(refused)));
      return issued === undefined || issued.baseUrl === refused.tenant.baseUrl ? undefined : { other: issued.baseUrl };
    },
    sentence: 'the access token was issued by another tenant ({other}): a token is valid only at the tenant that issued it',
  },
  {
    code: 'bearer-jwt',
    explains: [UNKNOWN],
    checks: 'JWTs',
    detect: (refused) => (/^[\w-]+\.[\w-]+\.[\w-]*$/.test(bearerToken(refused)) ? {} : undefined),
    sentence: 'the bearer value is a JWT (a client assertion?): send the access_token the token endpoint answered with',
  },
];

export const API_BEARER_MISTAKES: MistakeArea = {
  area: 'api-bearer',
  title: "The API's bearer token (§4.2, §5.1)",
  mistakes,
  advice: [{ says: UNKNOWN.says, advice: 'send the access_token this sandbox answered with, unchanged (a sandbox restarted without --state-dir forgets its tokens)' }],
};
