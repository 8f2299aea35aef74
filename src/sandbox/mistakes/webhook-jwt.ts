/**
 * JWT listeners (service.md §5.4 JWT, ruling 22): every claim with the form it must take (`sub` the
 * tenant's base URL, `aud` the listener's full URL, `jti` the event ID, `htm` POST, `htb_s256` over the
 * raw body, `exp` within 10 minutes), the header (`alg`, `kid`) and the bearer form. The claims are read
 * without trust (the token was refused); the expected values are public (URLs, the event ID, the body).
 */
import { sha256Base64Url } from '../../crypto/encoding.js';
import { SIGNING_ALGS } from '../../crypto/signing-keys.js';
import { WEBHOOK_JWT_MAX_EXP_SECONDS } from '../../spec-numbers.js';
import type { RefusedRequest } from '../refused-request.js';
import { reserializations } from '../reserialize.js';
import { claimMistakes, refusedFor, type TokenKind } from './jwt-claims.js';
import { kindOf, schemeShown, shown } from './shown.js';
import type { Facts, Mistake, MistakeArea } from './types.js';

const JWT: TokenKind = { prefix: 'jwt', name: 'the webhook JWT', refusedAs: 'JWT refused (', status: 401, maxExpSeconds: WEBHOOK_JWT_MAX_EXP_SECONDS };
/** The claims §5.4 requires; `iat` is optional. */
const REQUIRED = ['sub', 'aud', 'exp', 'jti', 'htm', 'htb_s256'] as const;
const NOT_BEARER = { status: 401, says: 'Authorization must be Bearer <JWT>' };

/** What an `aud` or `sub` the client sent is, in words: which URL it is when it is one the tenant has. */
function urlWords(refused: RefusedRequest, value: unknown): string {
  const base = refused.tenant.baseUrl;
  if (Array.isArray(value)) return `an array of ${value.length} audiences (one value is required)`;
  if (value === base || value === `${base}/`) return `the tenant's base URL ${shown(value)}`;
  if (value === refused.listenerId) return 'the listener ID alone';
  if (value === `${refused.listenerUrl}/`) return 'the listener URL with a trailing slash';
  if (typeof value === 'string' && value.replace(/^https?:/, '') === refused.listenerUrl.replace(/^https?:/, '')) return `the listener URL with another scheme, ${shown(value)}`;
  if (value === refused.tenant.tenantDomain) return "the tenant's domain (that is a client assertion's aud)";
  return kindOf(value);
}

const htbOf = (refused: RefusedRequest): unknown => refused.claim('htb_s256');

const mistakes: readonly Mistake[] = [
  {
    code: 'jwt-bearer-prefix-missing',
    explains: [NOT_BEARER],
    checks: 'the Bearer prefix',
    detect: (refused) => (/^\s*[\w-]+\.[\w-]+\.[\w-]*\s*$/.test(refused.header('authorization') ?? '') ? {} : undefined),
    sentence: 'Authorization holds a bare JWT: send it as "Authorization: Bearer <JWT>"',
  },
  {
    code: 'jwt-authorization-scheme',
    explains: [NOT_BEARER],
    checks: 'the scheme',
    detect: (refused) => ({ scheme: schemeShown(refused.header('authorization') ?? '') }),
    sentence: 'Authorization uses the scheme {scheme}: send "Authorization: Bearer <JWT>"',
  },
  {
    code: 'jwks-unreachable',
    explains: [{ status: 401, says: 'the JWKS could not be fetched' }],
    checks: 'the JWKS',
    detect: (refused) => ({ url: refused.listener?.kind === 'JWT' ? refused.listener.listener.config.jwksUrl : '' }),
    sentence: "the sandbox could not fetch this listener's JWKS from {url}: serve it there (with the certificate and key written next to the profile), then send again",
  },
  {
    code: 'jwt-kid-missing',
    explains: refusedFor(JWT, 'kid-missing'),
    checks: 'kid',
    detect: () => ({}),
    sentence: 'the webhook JWT\'s header has no kid: name the JWKS key it was signed with',
  },
  {
    code: 'jwt-kid-unknown',
    explains: refusedFor(JWT, 'kid-unknown'),
    checks: 'kid against the JWKS',
    detect: (refused) => {
      const named = refused.listener;
      if (named?.kind !== 'JWT') return undefined;
      // The kids are the tenant's own JWKS's only when the listener still fetches the JWKS the tenant made.
      const own = named.listener.config.jwksUrl === refused.tenant.jwks.url;
      const kids = own ? named.listener.signingKeys.map((key) => `"${key.kid}"`).join(', ') : '';
      return { kid: shown(refused.jwt?.decoded.header?.kid), url: named.listener.config.jwksUrl, holds: own ? `, which holds ${kids}` : '' };
    },
    sentence: 'kid {kid} is not in the listener\'s JWKS ({url}){holds}: sign with a key the JWKS publishes and name its kid',
  },
  {
    code: 'jwt-alg-not-allowed',
    explains: refusedFor(JWT, 'alg-not-allowed'),
    checks: 'alg',
    detect: (refused) => ({ alg: shown(refused.jwt?.decoded.header?.alg) }),
    sentence: `alg {alg} is not accepted: sign with the private key of a JWKS entry, ${SIGNING_ALGS.join(', ')} (never "none" or HS256)`,
  },
  {
    code: 'jwt-alg-not-key-alg',
    explains: refusedFor(JWT, 'key-alg-mismatch'),
    checks: "alg against the key's",
    detect: (refused) => ({ alg: shown(refused.jwt?.decoded.header?.alg), kid: shown(refused.jwt?.decoded.header?.kid) }),
    sentence: 'alg {alg} is not the alg the JWKS gives key {kid}: a key is used with its own algorithm only',
  },
  {
    code: 'jwt-signature-invalid',
    explains: refusedFor(JWT, 'bad-signature'),
    checks: 'the signature',
    detect: (refused) => ({ kid: shown(refused.jwt?.decoded.header?.kid) }),
    sentence: "the webhook JWT's signature does not verify with the JWKS key {kid}: it was signed with another private key, or its header or payload changed after signing",
  },
  {
    code: 'jwt-claim-missing',
    explains: refusedFor(JWT, 'claim-missing'),
    checks: 'the required claims',
    detect: (refused) => {
      const missing = REQUIRED.filter((name) => refused.claim(name) === undefined);
      return missing.length === 0 ? undefined : { missing: missing.join(', ') };
    },
    sentence: `the webhook JWT lacks {missing}: it carries ${REQUIRED.join(', ')} (iat optional)`,
  },
  {
    code: 'jwt-sub-not-base-url',
    explains: refusedFor(JWT, 'sub-mismatch'),
    checks: 'sub',
    detect: (refused) => ({ expected: refused.tenant.baseUrl, seen: urlWords(refused, refused.claim('sub')) }),
    sentence: "sub must be the tenant's base URL {expected}; this one is {seen}",
  },
  {
    code: 'jwt-aud-not-listener-url',
    explains: refusedFor(JWT, 'aud-mismatch'),
    checks: 'aud',
    detect: (refused) => ({ expected: refused.listenerUrl, seen: urlWords(refused, refused.claim('aud')) }),
    sentence: "aud must be the listener's full URL {expected} (one value); this one is {seen}",
  },
  {
    code: 'jwt-jti-not-event-id',
    explains: refusedFor(JWT, 'jti-mismatch'),
    checks: 'jti',
    detect: (refused) => ({ eventId: shown(refused.header('webhook-event-id')), seen: kindOf(refused.claim('jti')) }),
    sentence: 'jti must equal the Webhook-Event-Id header, {eventId}; this one is {seen}',
  },
  {
    code: 'jwt-htm-not-post',
    explains: refusedFor(JWT, 'htm-mismatch'),
    checks: 'htm',
    detect: (refused) => ({ seen: kindOf(refused.claim('htm')) }),
    sentence: 'htm must be "POST"; this one is {seen}',
  },
  {
    code: 'jwt-htb-reserialized-body',
    explains: refusedFor(JWT, 'htb-mismatch'),
    checks: 'htb_s256 over re-serialised bodies',
    detect: (refused): Facts | undefined => {
      const htb = htbOf(refused);
      const form = typeof htb === 'string' ? reserializations(refused.request.body).find((r) => sha256Base64Url(r.bytes) === htb)?.form : undefined;
      return form === undefined ? undefined : { form };
    },
    sentence: 'htb_s256 is the hash of the body {form}, not of the raw bytes sent: hash exactly the bytes of the request body',
  },
  {
    code: 'jwt-htb-encoding',
    explains: refusedFor(JWT, 'htb-mismatch'),
    checks: "htb_s256's encoding",
    detect: (refused) => {
      const htb = htbOf(refused);
      if (typeof htb !== 'string') return undefined;
      const digest = Buffer.from(sha256Base64Url(refused.request.body), 'base64url');
      const found = (
        [
          ['hex', digest.toString('hex')],
          ['standard base64', digest.toString('base64')],
          ['standard base64 without padding', digest.toString('base64').replace(/=+$/, '')],
          ['base64url with padding', `${digest.toString('base64url')}=`],
        ] as const
      ).find(([, text]) => text.toLowerCase() === htb.toLowerCase() && (text === htb || /^[0-9a-f]+$/i.test(htb)));
      return found === undefined ? undefined : { encoding: found[0] };
    },
    sentence: 'htb_s256 is the SHA-256 of the body written as {encoding}: write it base64url without padding',
  },
  {
    code: 'jwt-htb-not-body-hash',
    explains: refusedFor(JWT, 'htb-mismatch'),
    checks: 'htb_s256',
    detect: (refused) => ({ seen: kindOf(htbOf(refused)) }),
    sentence: 'htb_s256 must be base64url(SHA-256) of the raw body bytes sent; this one ({seen}) is not, nor the hash of any re-serialisation tried (2 and 4 spaces, tabs, sorted keys, other separators)',
  },
  ...claimMistakes(JWT),
];

export const WEBHOOK_JWT_MISTAKES: MistakeArea = {
  area: 'webhook-jwt',
  title: 'Webhook JWTs (§5.4 JWT)',
  mistakes,
};
