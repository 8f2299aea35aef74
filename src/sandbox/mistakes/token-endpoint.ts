/**
 * The token endpoint (service.md §4.1, §5.3; rulings 3-5): the client credentials grant in a form body,
 * with the Client Secret or an EdDSA client assertion. Every refusal here keeps its RFC 6749 `error`
 * (ruling 5); the sentence says which part of the request was wrong. A wrong secret is named only when
 * what was sent IS another secret of the tenant (or this one with blanks around it): the pair "client ID
 * unknown" / "secret wrong" stays one answer, as the reference gives it.
 */
import { createPublicKey, verify } from 'node:crypto';
import { sha256Base64Url } from '../../crypto/encoding.js';
import { CLIENT_ASSERTION_MAX_EXP_SECONDS } from '../../spec-numbers.js';
import { TOKEN_PATH, type RefusedRequest } from '../refused-request.js';
import { claimMistakes, refusedFor, type TokenKind } from './jwt-claims.js';
import { kindOf, shown } from './shown.js';
import type { Facts, Mistake, MistakeArea, Refusal } from './types.js';

const ASSERTION: TokenKind = { prefix: 'assertion', name: 'the client assertion', refusedAs: 'client assertion refused (', status: 401, maxExpSeconds: CLIENT_ASSERTION_MAX_EXP_SECONDS };
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const AUTH_FAILED: Refusal = { status: 401, says: 'client authentication failed' };
const NOT_FORM: Refusal = { status: 400, says: 'send the parameters as application/x-www-form-urlencoded' };
/** Other names senders give the secret (SDK field names, other providers). */
const SECRET_NAMES = ['clientSecret', 'secret', 'client-secret', 'password', 'client_password'];

const credentialsOf = (refused: RefusedRequest): Array<[string, { clientId: string; clientSecret: string; config: { secretSha256: string; publicJwk: unknown } }]> =>
  Object.entries(refused.tenant.credentials);

/** The credential (by its profile name) whose secret hashes to the same as `text`, if any. */
function credentialWithSecret(refused: RefusedRequest, text: string): [string, string] | undefined {
  const hash = sha256Base64Url(text);
  const found = credentialsOf(refused).find(([, c]) => c.config.secretSha256 === hash);
  return found === undefined ? undefined : [found[0], found[1].clientId];
}

const nameOfClient = (refused: RefusedRequest, clientId: string | null): string | undefined => credentialsOf(refused).find(([, c]) => c.clientId === clientId)?.[0];

/** What a client assertion's `aud` is, in words. */
function audienceWords(refused: RefusedRequest, aud: unknown): string {
  const base = refused.tenant.baseUrl;
  if (aud === `${base}${TOKEN_PATH}`) return 'the token endpoint\'s URL';
  if (aud === base || aud === `${base}/`) return "the tenant's base URL";
  if (Array.isArray(aud)) return `an array of ${aud.length} (one value, or an array of exactly one)`;
  return kindOf(aud);
}

/** The credential of the tenant whose key verifies the assertion's signature, when not the client's own. */
function signedByOther(refused: RefusedRequest): Facts | undefined {
  const token = refused.jwt?.token;
  if (token === undefined) return undefined;
  const [header, payload, signature] = token.split('.');
  if (header === undefined || payload === undefined || signature === undefined) return undefined;
  const input = Buffer.from(`${header}.${payload}`, 'utf8');
  const sig = Buffer.from(signature, 'base64url');
  const clientId = refused.form.get('client_id');
  for (const [name, credential] of credentialsOf(refused)) {
    if (credential.clientId === clientId) continue;
    try {
      const key = createPublicKey({ key: credential.config.publicJwk as never, format: 'jwk' });
      if (verify(null, input, key, sig)) return { other: name, client: nameOfClient(refused, clientId) ?? 'the client_id sent' };
    } catch {
      // A key node cannot read verifies nothing.
    }
  }
  return undefined;
}

const mistakes: readonly Mistake[] = [
  {
    code: 'token-method-not-post',
    explains: [{ status: 405, says: 'use POST', path: TOKEN_PATH }],
    checks: 'the method',
    detect: (refused) => ({ method: shown(refused.request.method) }),
    sentence: 'the token endpoint takes POST, not {method}',
  },
  {
    code: 'token-json-body',
    explains: [NOT_FORM],
    checks: 'a JSON body',
    detect: (refused) => (/json/i.test(refused.header('content-type') ?? '') ? {} : undefined),
    sentence: 'the parameters were sent as JSON: send them as a form body, Content-Type: application/x-www-form-urlencoded (RFC 6749 §4.4)',
  },
  {
    code: 'token-content-type',
    explains: [NOT_FORM],
    checks: 'Content-Type',
    detect: (refused) => ({ seen: shown(refused.header('content-type')) }),
    sentence: 'Content-Type is {seen}: send the parameters as application/x-www-form-urlencoded',
  },
  {
    code: 'token-basic-auth',
    explains: [{ status: 400, says: 'client credentials belong in the form body' }],
    checks: 'the Authorization header',
    detect: () => ({}),
    sentence: 'the client credentials came in a Basic Authorization header: send client_id and client_secret (or client_assertion) in the form body, and no Authorization header (§4.1)',
  },
  {
    code: 'token-parameter-repeated',
    explains: [{ status: 400, says: 'parameter ' }],
    checks: 'repeated parameters',
    detect: (refused) => ({ name: shown(/^parameter (.*) is repeated$/.exec(refused.description)?.[1]) }),
    sentence: 'the form has {name} more than once: send each parameter once',
  },
  {
    code: 'token-grant-type-missing',
    explains: [{ status: 400, says: 'grant_type is missing' }],
    checks: 'grant_type',
    detect: (refused) => {
      const other = [...refused.form.keys()].find((k) => /^grant.?type$/i.test(k));
      return { other: other === undefined ? '' : ` (this one has ${shown(other)})` };
    },
    sentence: 'the form has no grant_type{other}: send grant_type=client_credentials',
  },
  {
    code: 'token-grant-type-value',
    explains: [{ status: 400, says: 'only client_credentials is supported' }],
    checks: 'grant_type',
    detect: (refused) => ({ seen: shown(refused.form.get('grant_type')) }),
    sentence: 'grant_type is {seen}: the one grant is client_credentials, written exactly so',
  },
  {
    code: 'token-client-id-missing',
    explains: [{ status: 400, says: 'client_id is missing' }],
    checks: 'client_id',
    detect: () => ({}),
    sentence: 'the form has no client_id: send it with the secret or the assertion',
  },
  {
    code: 'token-two-methods',
    explains: [{ status: 400, says: 'use either client_secret or client_assertion' }],
    checks: 'the authentication methods',
    detect: () => ({}),
    sentence: 'the form has both client_secret and client_assertion: send one of them',
  },
  {
    code: 'token-assertion-type',
    explains: [{ status: 400, says: 'client_assertion_type must be' }, { status: 400, says: 'client_assertion is missing' }],
    checks: 'client_assertion_type',
    detect: (refused) => ({ seen: shown(refused.form.get('client_assertion_type') ?? undefined) }),
    sentence: `client_assertion_type is {seen}: with a client_assertion send client_assertion_type=${ASSERTION_TYPE}`,
  },
  {
    code: 'token-secret-other-name',
    explains: [{ status: 401, says: 'no client authentication in the request' }],
    checks: "the secret's parameter name",
    detect: (refused) => {
      const name = SECRET_NAMES.find((n) => refused.form.has(n));
      return name === undefined ? undefined : { name: shown(name) };
    },
    sentence: 'the form has {name} but no client_secret: the parameter is named client_secret',
  },
  {
    code: 'token-no-authentication',
    explains: [{ status: 401, says: 'no client authentication in the request' }],
    checks: 'client_secret and client_assertion',
    detect: () => ({}),
    sentence: 'the form has a client_id but neither client_secret nor client_assertion',
  },
  {
    code: 'token-client-id-blanks',
    explains: [AUTH_FAILED],
    checks: 'client_id with blanks',
    detect: (refused) => {
      const sent = refused.form.get('client_id') ?? '';
      // Only with that client's own secret: an ID alone must not be confirmed ("unknown client" and "wrong
      // secret" stay one answer), so a guessed ID with blanks reads like any other failure.
      const secret = refused.form.get('client_secret');
      return sent !== sent.trim() && secret !== null && credentialWithSecret(refused, secret.trim())?.[1] === sent.trim() ? {} : undefined;
    },
    sentence: 'client_id has blanks or a line feed around it: send the Client ID exactly',
  },
  {
    code: 'token-secret-blanks',
    explains: [AUTH_FAILED],
    checks: 'client_secret with blanks',
    detect: (refused) => {
      const sent = refused.form.get('client_secret');
      if (sent === null || sent === sent.trim()) return undefined;
      return credentialWithSecret(refused, sent.trim())?.[1] === refused.form.get('client_id') ? {} : undefined;
    },
    sentence: 'client_secret has blanks or a line feed around it (read from a file?): send the secret exactly',
  },
  {
    code: 'token-secret-other-credential',
    explains: [AUTH_FAILED],
    checks: "the tenant's other secrets",
    detect: (refused) => {
      const sent = refused.form.get('client_secret');
      const owner = sent === null ? undefined : credentialWithSecret(refused, sent);
      return owner === undefined || owner[1] === refused.form.get('client_id') ? undefined : { other: owner[0] };
    },
    sentence: 'client_secret is the secret of another credential ({other}): send the secret that belongs to the client_id',
  },
  {
    code: 'assertion-aud-not-tenant-domain',
    explains: refusedFor(ASSERTION, 'aud-mismatch'),
    checks: 'aud',
    detect: (refused) => ({ expected: refused.tenant.tenantDomain, seen: audienceWords(refused, refused.claim('aud')) }),
    sentence: 'the client assertion\'s aud must be the tenant\'s domain "{expected}" (host name only, no scheme or path); this one is {seen}',
  },
  {
    code: 'assertion-iss-not-client-id',
    explains: refusedFor(ASSERTION, 'iss-mismatch'),
    checks: 'iss',
    detect: (refused) => ({ seen: kindOf(refused.claim('iss')) }),
    sentence: "the client assertion's iss must be the client_id sent; this one is {seen}",
  },
  {
    code: 'assertion-sub-not-client-id',
    explains: refusedFor(ASSERTION, 'sub-mismatch'),
    checks: 'sub',
    detect: (refused) => ({ seen: kindOf(refused.claim('sub')) }),
    sentence: "the client assertion's sub must be the client_id sent; this one is {seen}",
  },
  {
    code: 'assertion-alg-not-eddsa',
    explains: refusedFor(ASSERTION, 'alg-not-allowed'),
    checks: 'alg',
    detect: (refused) => ({ alg: shown(refused.jwt?.decoded.header?.alg) }),
    sentence: 'the client assertion\'s alg is {alg}: sign it EdDSA, with the Ed25519 key inside the Client Secret',
  },
  {
    code: 'assertion-key-other-credential',
    explains: refusedFor(ASSERTION, 'bad-signature'),
    checks: "the tenant's other keys",
    detect: signedByOther,
    sentence: 'the client assertion was signed with the key of another credential ({other}): sign with the key inside the Client Secret of {client}',
  },
  {
    code: 'assertion-signature-invalid',
    explains: refusedFor(ASSERTION, 'bad-signature'),
    checks: 'the signature',
    detect: () => ({}),
    sentence: "the client assertion's signature does not verify with the client's key: sign with the Ed25519 key inside this client's Client Secret, and change nothing after signing",
  },
  {
    code: 'assertion-exp-missing',
    explains: refusedFor(ASSERTION, 'exp-missing'),
    checks: 'exp',
    detect: () => ({}),
    sentence: `the client assertion has no exp: set it within ${CLIENT_ASSERTION_MAX_EXP_SECONDS} s of now`,
  },
  ...claimMistakes(ASSERTION),
  {
    code: 'credential-expired',
    explains: [{ status: 401, says: 'the credential has expired' }],
    checks: "the credential's lifespan",
    detect: (refused) => ({ name: nameOfClient(refused, refused.form.get('client_id')) ?? 'this credential' }),
    sentence: 'the client authenticated, but its credential ({name}) has expired: create a new one',
  },
  {
    code: 'credential-source-address',
    explains: [{ status: 401, says: 'the credential may not be used from this address' }, { status: 403, says: 'the credential may not be used from this address' }],
    checks: "the credential's allowed CIDRs",
    detect: (refused) => ({ address: refused.request.remoteAddress }),
    sentence: 'this credential may be used only from its allowed CIDRs; this request came from {address}',
  },
];

export const TOKEN_ENDPOINT_MISTAKES: MistakeArea = {
  area: 'token-endpoint',
  title: 'The token endpoint (§4.1, §5.3)',
  mistakes,
  advice: [{ says: AUTH_FAILED.says, advice: "send one credential's client_id and client_secret exactly as the profile gives them" }],
};
