import { sha256Base64Url } from '../crypto/encoding.js';
import type { JWK } from '../crypto/types.js';
import { createAddressMatcher } from '../reference/cidr.js';
import { credentialExpiry } from '../reference/credentials.js';
import { mediaType } from '../reference/http.js';
import { acceptAssertion, assertionClaimsPass, assertionSignedBy, ignoreAssertionRefusal, refuseAssertion } from './support/assertion-faults.js';
import { anyForwardedClient } from './support/forwarding.js';
import { isObject, onRoute, readJson, routeOf, withHeaders, withJsonBody, withResponseHeaders } from './support/http.js';
import { hs256Signature } from './support/jwt-faults.js';
import { presenceOnlyClaims } from './support/numeric-dates.js';
import { ASSERTION_TYPE, assertionVerdict, credentialById, credentials, grantOf, issueAfterAuthentication, mintToken, refusal, tokenForm, withForm } from './support/token-endpoint.js';
import type { FaultTable } from './types.js';
import { keyFromJku } from './support/jku-fetch.js';

/** `https://tenant`, `tenant:443` and `tenant` all reduce to the same host. */
function hostOf(aud: string): string | undefined {
  try {
    return new URL(aud.includes('://') ? aud : `https://${aud}`).hostname;
  } catch {
    return undefined;
  }
}

/** The only JOSE header parameters a strict verifier lets through. */
const KNOWN = new Set(['alg', 'kid', 'typ']);

/** The `exp` a presence-only reader treats a non-number `exp` as: valid for another minute. */
const VALID_FOR_SECONDS = 60;

/** Ed25519 signatures are 64 bytes (RFC 8032 §5.1.6). */
const ED25519_SIGNATURE_BYTES = 64;

/** Signatures of assertions that verified: the faulty service's "already checked" cache (bounded, oldest out). */
const verified = new Set<string>();

/** How many verified signatures the faulty "already checked" cache keeps. */
const CACHE_SIZE = 10_000;

/** The form fields that carry client credentials. */
const CREDENTIAL_FIELDS = ['client_id', 'client_secret', 'client_assertion_type', 'client_assertion'];

export const FAULTS: FaultTable = [
  {
    name: 'assertion-alg-none-accepted',
    description: 'Accepts an unsigned client assertion (`alg: none`) whose claims are right.',
    breaks: ['TOK-18'],
    ...ignoreAssertionRefusal({ ignores: (reason, decoded) => reason === 'alg-not-allowed' && String(decoded.header?.alg).toLowerCase() === 'none' }),
  },
  {
    name: 'assertion-aud-array-refused',
    description: 'Accepts `aud` only as a string: a client assertion whose `aud` is a one-element array (as official SDKs send) is refused.',
    breaks: ['TOK-03'],
    ...refuseAssertion({
      refuses: (decoded) => Array.isArray(decoded.payload?.aud),
      why: 'aud must be a string',
    }),
  },
  {
    name: 'assertion-aud-as-url',
    description: 'Reads the client assertion\'s `aud` as a URL and compares only its host: a scheme or a port in `aud` is accepted.',
    breaks: ['TOK-13', 'TOK-14'],
    ...ignoreAssertionRefusal({
      ignores: (reason, decoded, tenant) => {
        const aud = decoded.payload?.aud;
        return reason === 'aud-mismatch' && typeof aud === 'string' && hostOf(aud) === tenant.tenantDomain;
      },
    }),
  },
  {
    name: 'assertion-aud-ignored',
    description: 'Never checks the client assertion\'s `aud`: an assertion meant for any other audience is accepted.',
    breaks: ['TOK-12', 'TOK-13', 'TOK-14'],
    ...ignoreAssertionRefusal({ ignores: (reason) => reason === 'aud-mismatch' }),
  },
  {
    name: 'assertion-crit-ignored',
    description: 'Ignores the `crit` header of a client assertion: one that requires an extension the service does not understand is accepted (RFC 7515 §4.1.11).',
    breaks: ['TOK-X04'],
    ...acceptAssertion({
      accepts: async (check) =>
        Array.isArray(check.decoded.header?.crit) && assertionSignedBy(check.assertion, check.credential.config.publicJwk) && assertionClaimsPass(check),
    }),
  },
  {
    name: 'assertion-exp-optional',
    description: 'Accepts a client assertion without `exp` ("a token without a finite expiry is not allowed").',
    breaks: ['TOK-09'],
    ...ignoreAssertionRefusal({ ignores: (reason) => reason === 'exp-missing' }),
  },
  {
    name: 'assertion-exp-unbounded',
    description: 'Accepts a client assertion whose `exp` is any time in the future, not only within five minutes.',
    breaks: ['TOK-10'],
    ...ignoreAssertionRefusal({ ignores: (reason) => reason === 'exp-too-far' }),
  },
  {
    name: 'assertion-expired-accepted',
    description: 'Accepts a client assertion whose `exp` is in the past.',
    breaks: ['TOK-11'],
    ...ignoreAssertionRefusal({ ignores: (reason) => reason === 'expired' }),
  },
  {
    name: 'assertion-grant-unsupported',
    description: 'Supports only the basic method: every client assertion is refused, valid or not.',
    breaks: ['TOK-02', 'TOK-03', 'TOK-04', 'TOK-05', 'TOK-06', 'TOK-07', 'TOK-08', 'TOK-24'],
    ...refuseAssertion({
      refuses: () => true,
      why: 'client assertions are not supported',
    }),
  },
  {
    name: 'assertion-header-jwk-trusted',
    description: 'Verifies a client assertion that carries a `jwk` header with that embedded key instead of the Client Secret\'s (CVE-2018-0114).',
    breaks: ['TOK-X01'],
    ...acceptAssertion({
      accepts: async (check) => {
        const jwk = check.decoded.header?.jwk;
        return typeof jwk === 'object' && jwk !== null && assertionSignedBy(check.assertion, jwk as JWK) && assertionClaimsPass(check);
      },
    }),
  },
  {
    name: 'assertion-header-params-strict',
    description: 'Refuses client assertions whose JOSE header carries a parameter besides alg, kid and typ (such as `nonce`).',
    breaks: ['TOK-05'],
    ...refuseAssertion({
      refuses: (decoded) => Object.keys(decoded.header ?? {}).some((name) => !KNOWN.has(name)),
      why: 'unknown header parameter',
    }),
  },
  {
    name: 'assertion-iat-required',
    description: 'Requires `iat` in client assertions, although only `exp` is required.',
    breaks: ['TOK-08'],
    ...refuseAssertion({
      refuses: (decoded) => decoded.payload !== undefined && decoded.payload.iat === undefined,
      why: 'iat is missing',
    }),
  },
  {
    name: 'assertion-iss-case-insensitive',
    description: 'Compares a client assertion\'s `iss` with the Client ID case-insensitively, not as the exact string.',
    breaks: ['TOK-X07'],
    ...acceptAssertion({
      accepts: (check) => {
        const iss = check.decoded.payload?.iss;
        return check.verdict.reason === 'iss-mismatch' && typeof iss === 'string' && iss.toLowerCase() === check.credential.clientId.toLowerCase();
      },
    }),
  },
  {
    name: 'assertion-iss-ignored',
    description: 'Identifies the client by `sub` only: the client assertion\'s `iss` is not compared with the Client ID.',
    breaks: ['TOK-15'],
    ...ignoreAssertionRefusal({ ignores: (reason) => reason === 'iss-mismatch' }),
  },
  {
    name: 'assertion-jku-followed',
    description: 'Fetches the JWKS a client assertion\'s `jku` header names and verifies with the key found there (SSRF, and anyone can sign).',
    breaks: ['TOK-X02'],
    ...acceptAssertion({
      accepts: async (check) => {
        const header = check.decoded.header;
        if (typeof header?.jku !== 'string') return false;
        const key = await keyFromJku(header.jku, header.kid);
        return key !== undefined && assertionSignedBy(check.assertion, key) && assertionClaimsPass(check);
      },
    }),
  },
  {
    name: 'assertion-kid-path-read',
    description: 'Resolves a client assertion\'s `kid` that looks like a path as a key file and lets the header pick HMAC: a kid naming /dev/null verifies HS256 over the empty key.',
    breaks: ['TOK-X03'],
    ...acceptAssertion({
      accepts: async (check) => {
        const header = check.decoded.header;
        if (header?.alg !== 'HS256' || typeof header.kid !== 'string' || !header.kid.endsWith('/dev/null')) return false;
        // Reading /dev/null gives no bytes: the HMAC key is empty.
        return check.decoded.signature === hs256Signature(check.assertion, Buffer.alloc(0)) && assertionClaimsPass(check);
      },
    }),
  },
  {
    name: 'assertion-kid-refused',
    description: 'Refuses a client assertion whose header names a `kid`, because the Client Secret\'s JWK has none to match.',
    breaks: ['TOK-06'],
    ...refuseAssertion({
      refuses: (decoded) => decoded.header?.kid !== undefined,
      why: 'kid matches no key',
    }),
  },
  {
    name: 'assertion-nbf-refused',
    description: 'Refuses client assertions that carry `nbf` (the form official SDKs send: nbf = now − 2 min).',
    breaks: ['TOK-04'],
    explains: {
      'TOK-03': 'the harness\'s assertions carry nbf unless a check removes it (the SDK form), so this one is refused too',
      'TOK-05': 'the harness\'s assertions carry nbf unless a check removes it (the SDK form), so this one is refused too',
      'TOK-06': 'the harness\'s assertions carry nbf unless a check removes it (the SDK form), so this one is refused too',
      'TOK-07': 'the harness\'s assertions carry nbf unless a check removes it (the SDK form), so this one is refused too',
      'TOK-24': 'the harness\'s assertions carry nbf unless a check removes it (the SDK form), so no assertion-method token is issued',
    },
    ...refuseAssertion({
      refuses: (decoded) => decoded.payload?.nbf !== undefined,
      why: 'unexpected claim nbf',
    }),
  },
  /** The client-assertion twin of the webhook JWT's numeric-date presence-only fault (ruling 25, "webhook JWT and client assertion"). */
  {
    name: 'assertion-numeric-date-presence-only',
    description: 'Compares a client assertion\'s `exp` and `nbf` with the clock only when they are JSON numbers: a claim of any other type (a string, an object, null) counts as present and valid.',
    breaks: ['TOK-X11', 'TOK-X12'],
    ...acceptAssertion({
      accepts: async (check) => {
        const payload = check.decoded.payload;
        if (payload === undefined || !assertionSignedBy(check.assertion, check.credential.config.publicJwk)) return false;
        const seen = presenceOnlyClaims(payload, Math.floor(check.env.ports().clock.now()) + VALID_FOR_SECONDS);
        return seen !== undefined && assertionClaimsPass(check, seen);
      },
    }),
  },
  {
    name: 'assertion-signature-trailing-bytes',
    description: 'Reads only the first 64 bytes of a client assertion\'s Ed25519 signature: a valid signature with bytes appended verifies.',
    breaks: ['TOK-X05'],
    ...acceptAssertion({
      accepts: async (check) => {
        const signature = Buffer.from(check.decoded.signature, 'base64url');
        if (signature.length <= ED25519_SIGNATURE_BYTES) return false;
        const cut = `${check.assertion.split('.').slice(0, 2).join('.')}.${signature.subarray(0, ED25519_SIGNATURE_BYTES).toString('base64url')}`;
        return assertionSignedBy(cut, check.credential.config.publicJwk) && assertionClaimsPass(check);
      },
    }),
  },
  {
    name: 'assertion-signature-unverified',
    description: 'Decodes the client assertion and checks its claims but never verifies its EdDSA signature.',
    breaks: ['TOK-17'],
    ...ignoreAssertionRefusal({ ignores: (reason) => reason === 'bad-signature' }),
  },
  {
    name: 'assertion-sub-ignored',
    description: 'Identifies the client by `iss` only: the client assertion\'s `sub` is not compared with the Client ID.',
    breaks: ['TOK-16'],
    ...ignoreAssertionRefusal({ ignores: (reason) => reason === 'sub-mismatch' }),
  },
  {
    name: 'assertion-sub-prefix-match',
    description: 'Checks that a client assertion\'s `sub` starts with the Client ID instead of equalling it.',
    breaks: ['TOK-X08'],
    ...acceptAssertion({
      accepts: (check) => {
        const sub = check.decoded.payload?.sub;
        return check.verdict.reason === 'sub-mismatch' && typeof sub === 'string' && sub.startsWith(check.credential.clientId);
      },
    }),
  },
  {
    name: 'assertion-token-expires-in-fraction',
    description: 'For tokens obtained with a client assertion, `expires_in` is a fraction (seconds left on the assertion\'s clock), not an integer.',
    breaks: ['TOK-24'],
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const response = await next(request);
        const form = tokenForm(request);
        const body = readJson(response);
        if (response.status !== 200 || !form || grantOf(form) !== 'assertion' || !isObject(body)) return response;
        return withJsonBody(response, { ...body, expires_in: Number(body.expires_in) - 0.5 });
      }),
  },
  {
    name: 'assertion-typ-refused',
    description: 'Requires the explicit type `client-authentication+jwt` when a `typ` is present: a client assertion with `typ: JWT` is refused.',
    breaks: ['TOK-07'],
    ...refuseAssertion({
      refuses: (decoded) => decoded.header?.typ !== undefined && decoded.header.typ !== 'client-authentication+jwt',
      why: 'typ must be client-authentication+jwt',
    }),
  },
  {
    name: 'assertion-type-ignored',
    description: 'Reads `client_assertion` whatever `client_assertion_type` says (a SAML type included).',
    breaks: ['TOK-41'],
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const form = tokenForm(request);
        if (form && form.has('client_assertion') && form.get('client_assertion_type') !== ASSERTION_TYPE) {
          form.set('client_assertion_type', ASSERTION_TYPE);
          return next(withForm(request, form));
        }
        return next(request);
      }),
  },
  {
    name: 'assertion-verified-signature-cache',
    description: 'Caches client-assertion signatures that verified, keyed by the signature alone, and skips verification when one is seen again: a valid signature moved onto other claims is accepted.',
    breaks: ['TOK-X06'],
    ...acceptAssertion({
      accepts: async (check) => check.verdict.reason === 'bad-signature' && verified.has(check.decoded.signature) && assertionClaimsPass(check),
      observe: (check) => {
        if (assertionSignedBy(check.assertion, check.credential.config.publicJwk)) {
          if (verified.size >= CACHE_SIZE) verified.delete(verified.values().next().value as string);
          verified.add(check.decoded.signature);
        }
      },
    }),
  },
  {
    name: 'basic-grant-unsupported',
    description: 'Supports only signed client assertions: every request that sends `client_secret` is refused.',
    breaks: ['TOK-01', 'TOK-19', 'TOK-20', 'TOK-21', 'TOK-22', 'TOK-23'],
    explains: {
      'OWN-01': 'the harness gets its API tokens with the basic method, so no API call can be made',
    },
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const form = tokenForm(request);
        return form && form.get('grant_type') === 'client_credentials' && grantOf(form) === 'secret' ? refusal(401, 'invalid_client', 'client_secret is not supported') : next(request);
      }),
  },
  {
    name: 'credential-cidrs-assertion-only',
    description: 'Enforces the credential\'s allowed CIDRs for client assertions only: the basic method works from any address.',
    breaks: ['TOK-37'],
    wrap: (handler, env) =>
      onRoute('token', handler, async (request, _route, next) => {
        const form = tokenForm(request);
        const cidr = form && grantOf(form) === 'secret' ? credentialById(env.tenant, form.get('client_id'))?.config.allowedCidrs[0] : undefined;
        return next(cidr ? { ...request, remoteAddress: cidr.split('/')[0]! } : request);
      }),
  },
  {
    name: 'credential-cidrs-ignored',
    description: 'Never compares the source address with the credential\'s allowed CIDRs at the token endpoint.',
    breaks: ['TOK-37', 'TOK-38'],
    wrap: (handler, env) =>
      onRoute('token', handler, async (request, _route, next) => {
        const form = tokenForm(request);
        const cidr = form && credentialById(env.tenant, form.get('client_id'))?.config.allowedCidrs[0];
        // As if the request came from inside the first allowed block: the address no longer matters.
        return next(cidr ? { ...request, remoteAddress: cidr.split('/')[0]! } : request);
      }),
  },
  {
    name: 'credential-lifespan-ignored',
    description: 'Never compares the credential\'s lifespan with its age: a credential past its 30 days still gets tokens.',
    breaks: ['TOK-39', 'TOK-40'],
    wrap: (handler, env) =>
      onRoute('token', handler, async (request, _route, next) => {
        const response = await next(request);
        const form = tokenForm(request);
        const credential = form && credentialById(env.tenant, form.get('client_id'));
        const now = env.ports().clock.now();
        if (response.status !== 401 || !form || !credential || credentialExpiry(credential.config) > now) return response;
        if (form.get('grant_type') !== 'client_credentials') return response;
        // The credential authenticated (secret or assertion) and is allowed here: only its age was against it.
        const grant = grantOf(form);
        const authenticated = grant === 'secret'
          ? sha256Base64Url(form.get('client_secret') ?? '') === credential.config.secretSha256
          : grant === 'assertion' && form.get('client_assertion_type') === ASSERTION_TYPE &&
            (await assertionVerdict(env.tenant, credential, form.get('client_assertion')!, now)).ok;
        if (!authenticated || !createAddressMatcher(credential.config.allowedCidrs).allows(request.remoteAddress)) return response;
        return mintToken(env, credential.clientId);
      }),
  },
  {
    name: 'credential-trusts-forwarding',
    description: 'Takes the source address for a credential\'s IP restriction from `X-Forwarded-For`, `Forwarded` or `X-Real-IP` when present: anyone can claim an allowed address at the token endpoint.',
    breaks: ['CRED-X01', 'CRED-X02', 'CRED-X03'],
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const claimed = anyForwardedClient(request);
        return next(claimed === undefined ? request : { ...request, remoteAddress: claimed });
      }),
  },
  {
    name: 'token-access-token-camel-case',
    description: 'Names the token `accessToken` in the token response instead of `access_token`.',
    breaks: ['TOK-20'],
    explains: {
      'TOK-01': 'a token response without access_token gives the client no token',
      'TOK-02': 'a token response without access_token gives the client no token',
      'TOK-03': 'a token response without access_token gives the client no token',
      'TOK-04': 'a token response without access_token gives the client no token',
      'TOK-05': 'a token response without access_token gives the client no token',
      'TOK-06': 'a token response without access_token gives the client no token',
      'TOK-07': 'a token response without access_token gives the client no token',
      'TOK-08': 'a token response without access_token gives the client no token',
      'TOK-24': 'the assertion-method response has no access_token either',
      'OWN-01': 'the harness finds no access_token, so no API call can be made',
    },
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const response = await next(request);
        const body = readJson(response);
        if (response.status !== 200 || !isObject(body)) return response;
        const { access_token: accessToken, ...rest } = body;
        return withJsonBody(response, { accessToken, ...rest });
      }),
  },
  {
    name: 'token-any-grant-type',
    description: 'Requires a `grant_type` but never checks its value: `grant_type=password` is served as client credentials.',
    breaks: ['TOK-29', 'TOK-30'],
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const form = tokenForm(request);
        if (form && form.get('grant_type')) {
          form.set('grant_type', 'client_credentials');
          return next(withForm(request, form));
        }
        return next(request);
      }),
  },
  {
    name: 'token-basic-credentials-accepted',
    description: 'Takes client_id and client_secret from an `Authorization: Basic` header (RFC 6749 §2.3.1) although §4.1 puts credentials in the body, never in headers.',
    breaks: ['TOK-X09'],
    wrap: (handler) => async (request) => {
      const basic = /^\s*basic\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
      const form = tokenForm(request);
      if (routeOf(request).kind !== 'token' || basic === undefined || form === undefined) return handler(request);
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) return handler(request);
      form.set('client_id', decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')));
      form.set('client_secret', decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')));
      return handler(withForm(withHeaders(request, { authorization: null }), form));
    },
  },
  {
    name: 'token-cacheable',
    description: 'Leaves out `Cache-Control: no-store` (and `Pragma: no-cache`) on token responses, so caches may keep tokens.',
    breaks: ['TOK-23'],
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => withResponseHeaders(await next(request), { 'cache-control': null, pragma: null })),
  },
  {
    name: 'token-credential-by-secret',
    description: 'Finds the credential by its secret and ignores `client_id`: an unknown or missing Client ID with a valid secret gets a token.',
    breaks: ['TOK-27', 'TOK-28', 'TOK-35', 'TOK-36'],
    wrap: (handler, env) =>
      onRoute('token', handler, async (request, _route, next) => {
        const response = await next(request);
        const form = tokenForm(request);
        if (response.status < 400 || !form || grantOf(form) !== 'secret' || form.get('grant_type') !== 'client_credentials') return response;
        const hash = sha256Base64Url(form.get('client_secret') ?? '');
        const owner = credentials(env.tenant).find((credential) => credential.config.secretSha256 === hash);
        return owner ? issueAfterAuthentication(env, owner, request) : response;
      }),
  },
  {
    name: 'token-expires-in-string',
    description: 'Sends `expires_in` as a JSON string (`"3600"`) instead of an integer.',
    breaks: ['TOK-22', 'TOK-24'],
    explains: {
      'OWN-01': 'the harness cannot tell when a token with a string expires_in lapses, so it refuses to use it',
    },
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const response = await next(request);
        const body = readJson(response);
        return response.status === 200 && isObject(body) ? withJsonBody(response, { ...body, expires_in: String(body.expires_in) }) : response;
      }),
  },
  {
    name: 'token-grant-type-optional',
    description: 'Treats a missing `grant_type` as `client_credentials` instead of refusing the request.',
    breaks: ['TOK-31', 'TOK-32'],
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const form = tokenForm(request);
        if (form && !form.has('grant_type')) {
          form.set('grant_type', 'client_credentials');
          return next(withForm(request, form));
        }
        return next(request);
      }),
  },
  {
    name: 'token-json-body-accepted',
    description: 'Also reads the token request\'s fields from a JSON body, where only application/x-www-form-urlencoded is allowed.',
    breaks: ['TOK-33', 'TOK-34'],
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        if (mediaType(request) !== 'application/json') return next(request);
        let value: unknown;
        try {
          value = JSON.parse(request.body.toString('utf8'));
        } catch {
          return next(request);
        }
        if (!isObject(value)) return next(request);
        const form = new URLSearchParams();
        for (const [name, field] of Object.entries(value)) if (typeof field === 'string') form.set(name, field);
        return next(withForm(request, form));
      }),
  },
  {
    name: 'token-query-credentials-accepted',
    description: 'Reads client credentials from the URL query string as well as the body: they end up in access logs and proxies (RFC 6749 §2.3.1).',
    breaks: ['TOK-X10'],
    wrap: (handler) => async (request) => {
      const form = tokenForm(request);
      const queryAt = request.url.indexOf('?');
      if (routeOf(request).kind !== 'token' || form === undefined || queryAt < 0) return handler(request);
      const query = new URLSearchParams(request.url.slice(queryAt + 1));
      let moved = false;
      for (const name of CREDENTIAL_FIELDS) {
        const value = query.get(name);
        if (value !== null && !form.has(name)) {
          form.set(name, value);
          moved = true;
        }
      }
      return handler(moved ? withForm({ ...request, url: request.url.slice(0, queryAt) }, form) : request);
    },
  },
  {
    name: 'token-refusals-as-400',
    description: 'Answers every token refusal with 400 `invalid_request`, also failed client authentication and unknown grant types.',
    breaks: ['TOK-26', 'TOK-28', 'TOK-30'],
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const response = await next(request);
        return response.status >= 400 && response.status < 500 ? refusal(400, 'invalid_request', 'the token request was refused') : response;
      }),
  },
  {
    name: 'token-refusals-as-401',
    description: 'Answers every token refusal with 401 `invalid_client`, also malformed requests and unknown grant types.',
    breaks: ['TOK-30', 'TOK-32', 'TOK-34'],
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const response = await next(request);
        return response.status >= 400 && response.status < 500 ? refusal(401, 'invalid_client', 'the token request was refused') : response;
      }),
  },
  {
    name: 'token-response-text-plain',
    description: 'Answers token requests with the right JSON but `Content-Type: text/plain`.',
    breaks: ['TOK-19', 'TOK-20', 'TOK-21', 'TOK-22', 'TOK-24'],
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const response = await next(request);
        return response.status === 200 ? withResponseHeaders(response, { 'content-type': 'text/plain; charset=utf-8' }) : response;
      }),
  },
  {
    name: 'token-secret-not-verified',
    description: 'Looks up the Client ID but never compares the `client_secret`: any secret of the right format gets a token.',
    breaks: ['TOK-25', 'TOK-26'],
    wrap: (handler, env) =>
      onRoute('token', handler, async (request, _route, next) => {
        const response = await next(request);
        const form = tokenForm(request);
        const credential = form && credentialById(env.tenant, form.get('client_id'));
        if (response.status !== 401 || !form || !credential || grantOf(form) !== 'secret' || form.get('grant_type') !== 'client_credentials') return response;
        return issueAfterAuthentication(env, credential, request);
      }),
  },
  {
    name: 'token-type-jwt',
    description: 'Answers `"token_type": "JWT"` where the token type is `Bearer`.',
    breaks: ['TOK-21', 'TOK-24'],
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const response = await next(request);
        const body = readJson(response);
        return response.status === 200 && isObject(body) ? withJsonBody(response, { ...body, token_type: 'JWT' }) : response;
      }),
  },
];
