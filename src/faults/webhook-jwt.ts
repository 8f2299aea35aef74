import { createHash, createPublicKey, type JsonWebKey, verify } from 'node:crypto';
import { decodeJwtParts } from '../crypto/decode.js';
import { P256_ORDER } from '../crypto/jws-tamper.js';
import { buildJwks, toPublicJwk } from '../crypto/signing-keys.js';
import type { JWK } from '../crypto/types.js';
import type { Jwks, JwksFetcher } from '../reference/types.js';
import { reserialisedBody } from './support/events.js';
import { header, listenerUrl } from './support/http.js';
import { acceptIfSignedAndClaimsPass, claimsVerdict, firstWinsObject, hs256Signature, ignoring, jwtRule, signatureValid } from './support/jwt-faults.js';
import { presenceOnlyClaims } from './support/numeric-dates.js';
import { jwtVerdict, listedKey } from './support/webhook-faults.js';
import type { FaultTable } from './types.js';
import { keyFromJku } from './support/jku-fetch.js';

/** The audience comparison of a service that lower-cases URLs and drops trailing slashes. */
const normalise = (url: string): string => url.toLowerCase().replace(/\/+$/, '');

/** The `exp` a presence-only reader treats a non-number `exp` as: valid for another minute. */
const VALID_FOR_SECONDS = 60;

/** Signatures of JWTs that verified: the faulty service's "already checked" cache (bounded, oldest out). */
const verified = new Set<string>();

/** How many verified signatures the faulty "already checked" cache keeps. */
const CACHE_SIZE = 10_000;

export const FAULTS: FaultTable = [
  {
    name: 'jwks-cached-forever',
    description: 'Fetches each JWKS once and keeps it for good: a key added to the JWKS later (a rotation) is never accepted.',
    breaks: ['WH-JWT-X19'],
    ports: (deps) => {
      const inner = deps.jwksFetcher;
      const documents = new Map<string, Jwks>();
      const jwksFetcher: JwksFetcher = async (url) => {
        const kept = documents.get(url);
        if (kept !== undefined) return kept;
        const jwks = await inner(url);
        documents.set(url, jwks);
        return jwks;
      };
      return { jwksFetcher };
    },
  },
  {
    name: 'jwks-unreachable-accepted',
    description: 'When the JWKS URL cannot be fetched, falls back to a copy of the keys it once had, so a JWT for an unreachable JWKS is accepted.',
    breaks: ['WH-JWT-25'],
    ports: (deps, env) => {
      const inner = deps.jwksFetcher;
      const jwksFetcher: JwksFetcher = async (url) => {
        try {
          return await inner(url);
        } catch (error) {
          // The "stale copy": the keys the listener was set up with, as if fetched earlier.
          const listener = Object.values(env.tenant.listeners).find((candidate) => candidate.config.method === 'JWT' && candidate.config.jwksUrl === url);
          if (listener === undefined || !('signingKeys' in listener)) throw error;
          return buildJwks(listener.signingKeys);
        }
      };
      return { jwksFetcher };
    },
  },
  {
    name: 'jwt-alg-none-accepted',
    description: 'Accepts an unsigned webhook JWT (`alg: none`) when its claims are right.',
    breaks: ['WH-JWT-08'],
    ...jwtRule({
      decide: async (check) =>
        String(check.decoded?.header?.alg).toLowerCase() === 'none' && (await claimsVerdict(check))?.ok ? 'accept' : 'reference',
    }),
  },
  {
    name: 'jwt-any-scheme',
    description: 'Takes the JWT from the Authorization header whatever its scheme (`DPoP <JWT>` included), not only `Bearer <JWT>`.',
    breaks: ['WH-JWT-05'],
    ...jwtRule({
      decide: async ({ request, env, listener, jwt }) => {
        const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header(request, 'authorization') ?? '');
        if (jwt !== undefined || !match || decodeJwtParts(match[2]!).payload === undefined) return 'reference';
        return (await jwtVerdict(env, listener, request, match[2]!)).ok ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-aud-ignored',
    description: 'Never checks the webhook JWT\'s `aud`: a token for another listener (or for none) is accepted.',
    breaks: ['WH-JWT-12', 'WH-JWT-18'],
    ...jwtRule({ decide: ignoring(({ reason, detail }) => reason === 'aud-mismatch' || (reason === 'claim-missing' && detail === 'aud')) }),
  },
  {
    name: 'jwt-aud-normalised',
    description: 'Compares `aud` with the listener URL case-insensitively and ignoring a trailing slash, not as the exact string (RFC 7519 §2).',
    breaks: ['WH-JWT-X14'],
    ...jwtRule({
      decide: (check) => {
        const { verdict, decoded, env, listener } = check;
        const aud = decoded?.payload?.aud;
        if (verdict?.ok !== false || verdict.reason !== 'aud-mismatch' || typeof aud !== 'string') return 'reference';
        return normalise(aud) === normalise(listenerUrl(env.tenant, listener.listenerId)) ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-auth-optional',
    description: 'Verifies the JWT only when an Authorization header is sent: a request without one is accepted.',
    breaks: ['WH-JWT-04'],
    ...jwtRule({ decide: ({ request }) => (header(request, 'authorization') === undefined ? 'accept' : 'reference') }),
  },
  {
    name: 'jwt-claims-first-wins',
    description: 'Parses the claims with a first-wins JSON parser: of a repeated claim the first occurrence counts, which RFC 7519 §4 does not allow.',
    breaks: ['WH-JWT-X17'],
    ...jwtRule({
      decide: async (check) => {
        const { verdict, jwt } = check;
        if (jwt === undefined || verdict?.ok !== false || verdict.reason !== 'duplicate-member') return 'reference';
        const claims = firstWinsObject(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
        return claims === undefined ? 'reference' : acceptIfSignedAndClaimsPass(check, claims);
      },
    }),
  },
  {
    name: 'jwt-claims-optional',
    description: 'Checks each required claim only when it is present: a JWT without sub, aud, exp, jti, htm or htb_s256 is accepted.',
    breaks: ['WH-JWT-11', 'WH-JWT-12', 'WH-JWT-13', 'WH-JWT-14', 'WH-JWT-15', 'WH-JWT-16'],
    ...jwtRule({ decide: ignoring(({ reason }) => reason === 'claim-missing') }),
  },
  {
    name: 'jwt-crit-ignored',
    description: 'Ignores the `crit` header: a JWT that requires an extension the service does not understand is accepted (RFC 7515 §4.1.11).',
    breaks: ['WH-JWT-X04'],
    ...jwtRule({
      decide: async (check) => {
        if (check.verdict?.ok !== false || !Array.isArray(check.decoded?.header?.crit)) return 'reference';
        return acceptIfSignedAndClaimsPass(check);
      },
    }),
  },
  {
    name: 'jwt-ecdsa-der-accepted',
    description: 'Accepts a DER-encoded ES256 signature (what OpenSSL and Java produce) where JOSE requires the 64-byte r‖s (RFC 7518 §3.4).',
    breaks: ['WH-JWT-X08'],
    ...jwtRule({
      decide: async (check) => {
        const { jwt, decoded } = check;
        const key = listedKey(check.listener, decoded?.header?.kid);
        if (jwt === undefined || decoded?.header?.alg !== 'ES256' || check.verdict?.ok !== false || key === undefined) return 'reference';
        const signature = Buffer.from(decoded.signature, 'base64url');
        if (signature.length === 64) return 'reference';
        let valid: boolean;
        try {
          const input = Buffer.from(jwt.split('.').slice(0, 2).join('.'));
          valid = verify('sha256', input, { key: createPublicKey({ key: key as JsonWebKey, format: 'jwk' }), dsaEncoding: 'der' }, signature);
        } catch {
          valid = false;
        }
        return valid && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-ecdsa-unreduced',
    description: 'ES256 verification that reduces r and s modulo the group order instead of refusing values ≥ n: r or s equal to n becomes 0 and verifies any message.',
    breaks: ['WH-JWT-X07'],
    ...jwtRule({
      decide: async (check) => {
        if (check.decoded?.header?.alg !== 'ES256' || check.verdict?.ok !== false) return 'reference';
        const signature = Buffer.from(check.decoded.signature, 'base64url');
        if (signature.length !== 64) return 'reference';
        const value = (half: Buffer): bigint => BigInt(`0x${half.toString('hex')}`);
        const [r, s] = [value(signature.subarray(0, 32)), value(signature.subarray(32))];
        const wraps = (x: bigint): boolean => x >= P256_ORDER && x % P256_ORDER === 0n;
        return (wraps(r) || wraps(s)) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-ecdsa-zero-accepted',
    description: 'ES256 verification without the r, s ≠ 0 check (CVE-2022-21449, "psychic signatures"): a signature with r = 0 or s = 0 verifies any message.',
    breaks: ['WH-JWT-X06'],
    ...jwtRule({
      decide: async (check) => {
        if (check.decoded?.header?.alg !== 'ES256' || check.verdict?.ok !== false) return 'reference';
        const signature = Buffer.from(check.decoded.signature, 'base64url');
        if (signature.length !== 64) return 'reference';
        const zero = (half: Buffer): boolean => half.every((byte) => byte === 0);
        return (zero(signature.subarray(0, 32)) || zero(signature.subarray(32))) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-eddsa-unsupported',
    description: 'Supports only RS256 and ES256: webhook JWTs signed with EdDSA (Ed25519) are refused.',
    breaks: ['WH-JWT-03'],
    ...jwtRule({ decide: ({ decoded }) => (decoded?.header?.alg === 'EdDSA' ? 'refuse' : 'reference') }),
  },
  {
    name: 'jwt-es256-unsupported',
    description: 'Supports only RSA and Ed25519 keys: webhook JWTs signed with ES256 are refused.',
    breaks: ['WH-JWT-02'],
    ...jwtRule({ decide: ({ decoded }) => (decoded?.header?.alg === 'ES256' ? 'refuse' : 'reference') }),
  },
  {
    name: 'jwt-exp-compared-as-date',
    description: 'Checks `exp` through `new Date(exp * 1000)`: for a huge `exp` that is an Invalid Date, every comparison with it is false, so it is neither expired nor too far ahead.',
    breaks: ['WH-JWT-X12'],
    ...jwtRule({
      decide: (check) => {
        const { verdict, decoded } = check;
        if (verdict?.ok !== false || verdict.reason !== 'exp-too-far') return 'reference';
        return Number.isNaN(new Date(Number(decoded?.payload?.exp) * 1000).getTime()) ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-exp-ignored',
    description: 'Never checks the webhook JWT\'s `exp`: missing, expired or far ahead, it is accepted.',
    breaks: ['WH-JWT-13', 'WH-JWT-22', 'WH-JWT-23'],
    ...jwtRule({ decide: ignoring(({ reason, detail }) => reason === 'expired' || reason === 'exp-too-far' || (reason === 'claim-missing' && detail === 'exp')) }),
  },
  {
    name: 'jwt-exp-max-5-minutes',
    description: 'Bounds the webhook JWT\'s `exp` at 5 minutes ahead (the client-assertion limit) where §5.4 allows 10.',
    breaks: ['WH-JWT-26'],
    ...jwtRule({
      decide: ({ decoded, env }) => {
        const exp = decoded?.payload?.exp;
        return typeof exp === 'number' && exp > env.ports().clock.now() + 305 ? 'refuse' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-exp-unbounded',
    description: 'Checks only that the webhook JWT has not expired: an `exp` 15 minutes (or days) ahead is accepted.',
    breaks: ['WH-JWT-23'],
    ...jwtRule({ decide: ignoring(({ reason }) => reason === 'exp-too-far') }),
  },
  {
    name: 'jwt-expired-accepted',
    description: 'Checks only the upper bound of the webhook JWT\'s `exp`: an expired token is accepted.',
    breaks: ['WH-JWT-22'],
    ...jwtRule({ decide: ignoring(({ reason }) => reason === 'expired') }),
  },
  {
    name: 'jwt-first-key-without-kid',
    description: 'Verifies a JWT that carries no `kid` with the first key of the JWKS instead of refusing it.',
    breaks: ['WH-JWT-07'],
    ...jwtRule({
      decide: async (check) => {
        const { verdict, listener, jwt } = check;
        const first = listener.signingKeys[0];
        if (jwt === undefined || verdict?.ok !== false || verdict.reason !== 'kid-missing' || first === undefined) return 'reference';
        return signatureValid(jwt, toPublicJwk(first)) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-header-jwk-trusted',
    description: 'Verifies a JWT that carries a `jwk` header with that embedded key instead of the JWKS (CVE-2018-0114): anyone can sign.',
    breaks: ['WH-JWT-X01'],
    ...jwtRule({
      decide: async (check) => {
        const jwk = check.decoded?.header?.jwk;
        if (check.jwt === undefined || check.verdict?.ok !== false || typeof jwk !== 'object' || jwk === null) return 'reference';
        return signatureValid(check.jwt, jwk as JWK) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-hs256-public-key',
    description: 'Lets the JWT header choose the algorithm: an HS256 token keyed with the JWKS entry (public material) verifies (algorithm confusion).',
    breaks: ['WH-JWT-09'],
    ...jwtRule({
      decide: async (check) => {
        const { decoded, jwt, listener } = check;
        if (jwt === undefined || decoded?.header?.alg !== 'HS256') return 'reference';
        const key = listener.signingKeys.find((candidate) => candidate.kid === decoded.header?.kid);
        if (key === undefined) return 'reference';
        const secret = Buffer.from(JSON.stringify(toPublicJwk(key)), 'utf8');
        return decoded.signature === hs256Signature(jwt, secret) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-htb-hex-accepted',
    description: 'Accepts `htb_s256` as the body\'s SHA-256 in hex as well as in base64url.',
    breaks: ['WH-JWT-27'],
    ...jwtRule({
      decide: (check) =>
        check.decoded?.payload?.htb_s256 === createHash('sha256').update(check.request.body).digest('hex')
          ? ignoring(({ reason }) => reason === 'htb-mismatch')(check)
          : 'reference',
    }),
  },
  {
    name: 'jwt-htb-ignored',
    description: 'Never compares the webhook JWT\'s `htb_s256` with the body: under JWT the body is not protected.',
    breaks: ['WH-JWT-16', 'WH-JWT-21', 'WH-JWT-24', 'WH-JWT-27'],
    ...jwtRule({ decide: ignoring(({ reason, detail }) => reason === 'htb-mismatch' || (reason === 'claim-missing' && detail === 'htb_s256')) }),
  },
  {
    name: 'jwt-htb-over-parsed-json',
    description: 'Hashes the parsed and re-serialised JSON for `htb_s256` instead of the raw body bytes, so formatting is not protected.',
    breaks: ['WH-JWT-24'],
    ...jwtRule({
      decide: async (check) => {
        const body = reserialisedBody(check.request.body);
        if (check.jwt === undefined || body === undefined || ignoring(({ reason }) => reason === 'htb-mismatch')(check) !== 'accept') return 'reference';
        return (await jwtVerdict(check.env, check.listener, check.request, check.jwt, { body })).ok ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-htm-ignored',
    description: 'Never checks the webhook JWT\'s `htm`: missing or `GET`, it is accepted.',
    breaks: ['WH-JWT-15', 'WH-JWT-20'],
    ...jwtRule({ decide: ignoring(({ reason, detail }) => reason === 'htm-mismatch' || (reason === 'claim-missing' && detail === 'htm')) }),
  },
  {
    name: 'jwt-jku-followed',
    description: 'Fetches the JWKS a JWT\'s `jku` header names and verifies with the key found there (SSRF, and anyone can sign).',
    breaks: ['WH-JWT-X02'],
    ...jwtRule({
      decide: async (check) => {
        const header = check.decoded?.header;
        if (check.jwt === undefined || check.verdict?.ok !== false || typeof header?.jku !== 'string') return 'reference';
        const key = await keyFromJku(header.jku, header.kid);
        return key !== undefined && signatureValid(check.jwt, key) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-jti-ignored',
    description: 'Never compares the webhook JWT\'s `jti` with Webhook-Event-Id (nor requires it): a token can be replayed under new event IDs.',
    breaks: ['WH-JWT-14', 'WH-JWT-19'],
    ...jwtRule({ decide: ignoring(({ reason, detail }) => reason === 'jti-mismatch' || (reason === 'claim-missing' && detail === 'jti')) }),
  },
  {
    name: 'jwt-key-chosen-by-alg',
    description: 'When the key a `kid` names has another algorithm than the header\'s `alg`, uses any JWKS key of that `alg` instead of refusing.',
    breaks: ['WH-JWT-X05'],
    ...jwtRule({
      decide: async (check) => {
        const { verdict, jwt, listener } = check;
        if (jwt === undefined || verdict?.ok !== false || verdict.reason !== 'key-alg-mismatch') return 'reference';
        const alg = check.decoded?.header?.alg;
        const signed = listener.signingKeys.some((key) => key.alg === alg && signatureValid(jwt, toPublicJwk(key)));
        return signed && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-kid-ignored',
    description: 'When the JWT\'s `kid` is missing or matches no key, tries every key of the JWKS instead of refusing.',
    breaks: ['WH-JWT-06', 'WH-JWT-07'],
    ...jwtRule({
      decide: async (check) => {
        const { verdict, listener, jwt } = check;
        if (jwt === undefined || verdict === undefined || verdict.ok || (verdict.reason !== 'kid-unknown' && verdict.reason !== 'kid-missing')) return 'reference';
        const signed = listener.signingKeys.some((key) => signatureValid(jwt, toPublicJwk(key)));
        return signed && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-kid-path-read',
    description: 'Resolves a `kid` that looks like a path as a key file and lets the header pick HMAC: a kid naming /dev/null verifies HS256 over the empty key.',
    breaks: ['WH-JWT-X03'],
    ...jwtRule({
      decide: async (check) => {
        const header = check.decoded?.header;
        const kid = header?.kid;
        if (check.jwt === undefined || header?.alg !== 'HS256' || typeof kid !== 'string' || !kid.endsWith('/dev/null')) return 'reference';
        // Reading /dev/null gives no bytes: the HMAC key is empty.
        return check.decoded?.signature === hs256Signature(check.jwt, Buffer.alloc(0)) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-nbf-ignored',
    description: 'Does not check `nbf`: a JWT that is not valid yet is accepted (RFC 7519 §4.1.5).',
    breaks: ['WH-JWT-X13'],
    ...jwtRule({ decide: ignoring((verdict) => verdict.reason === 'nbf-in-future') }),
  },
  /**
   * Ruling 25's MUST side: a verifier that cannot read `exp` or `nbf` as a time must not skip the rule. This
   * one compares a claim with the clock only when it is a JSON number and otherwise settles for its presence.
   */
  {
    name: 'jwt-numeric-date-presence-only',
    description: 'Compares `exp` and `nbf` with the clock only when they are JSON numbers: a claim of any other type (a string, an object, null) counts as present and valid.',
    breaks: ['WH-JWT-X20', 'WH-JWT-X21', 'WH-JWT-X11', 'WH-JWT-X22'],
    ...jwtRule({
      decide: async (check) => {
        const payload = check.decoded?.payload;
        if (check.verdict?.ok !== false || payload === undefined) return 'reference';
        const seen = presenceOnlyClaims(payload, Math.floor(check.env.ports().clock.now()) + VALID_FOR_SECONDS);
        return seen === undefined ? 'reference' : acceptIfSignedAndClaimsPass(check, seen);
      },
    }),
  },
  {
    name: 'jwt-rs256-unsupported',
    description: 'Supports only ES256 and EdDSA: webhook JWTs signed with RS256 are refused.',
    breaks: ['WH-JWT-01'],
    explains: {
      'WH-JWT-26': 'the harness signs with the listener\'s first key, an RS256 key, when a check names no algorithm',
    },
    ...jwtRule({ decide: ({ decoded }) => (decoded?.header?.alg === 'RS256' ? 'refuse' : 'reference') }),
  },
  {
    name: 'jwt-signature-trailing-bytes',
    description: 'Reads only as many signature bytes as the algorithm needs: a valid signature with bytes appended verifies.',
    breaks: ['WH-JWT-X09'],
    ...jwtRule({
      decide: async (check) => {
        const { jwt, decoded } = check;
        const key = listedKey(check.listener, decoded?.header?.kid);
        if (jwt === undefined || decoded === undefined || check.verdict?.ok !== false || key === undefined) return 'reference';
        const signature = Buffer.from(decoded.signature, 'base64url');
        const needed = decoded.header?.alg === 'RS256' ? Buffer.from(String(key.n), 'base64url').length : 64;
        if (signature.length <= needed) return 'reference';
        const cut = `${jwt.split('.').slice(0, 2).join('.')}.${signature.subarray(0, needed).toString('base64url')}`;
        return signatureValid(cut, key) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-signature-unverified',
    description: 'Checks the webhook JWT\'s claims but not its signature: a token signed by any key under a listed `kid` is accepted.',
    breaks: ['WH-JWT-10'],
    ...jwtRule({
      decide: async (check) =>
        check.verdict?.ok === false && check.verdict.reason === 'bad-signature' && (await claimsVerdict(check))?.ok ? 'accept' : 'reference',
    }),
  },
  {
    name: 'jwt-sub-ignored',
    description: 'Never checks the webhook JWT\'s `sub`: missing or another tenant\'s URL, it is accepted.',
    breaks: ['WH-JWT-11', 'WH-JWT-17'],
    ...jwtRule({ decide: ignoring(({ reason, detail }) => reason === 'sub-mismatch' || (reason === 'claim-missing' && detail === 'sub')) }),
  },
  {
    name: 'jwt-sub-prefix-match',
    description: 'Checks that `sub` starts with the tenant base URL instead of equalling it: `https://acme.example.com.evil.example` passes.',
    breaks: ['WH-JWT-X15'],
    ...jwtRule({
      decide: (check) => {
        const { verdict, decoded, env } = check;
        const sub = decoded?.payload?.sub;
        if (verdict?.ok !== false || verdict.reason !== 'sub-mismatch' || typeof sub !== 'string') return 'reference';
        return sub.startsWith(env.tenant.baseUrl) ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-verified-signature-cache',
    description: 'Caches signatures that verified and skips verification when one is seen again, keyed by the signature alone: a valid signature moved onto other claims is accepted.',
    breaks: ['WH-JWT-X10'],
    ...jwtRule({
      decide: async (check) => {
        const { verdict, decoded } = check;
        if (decoded === undefined || verdict === undefined) return 'reference';
        if (verdict.ok) {
          if (verified.size >= CACHE_SIZE) verified.delete(verified.values().next().value as string);
          verified.add(decoded.signature);
          return 'reference';
        }
        return verdict.reason === 'bad-signature' && verified.has(decoded.signature) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
      },
    }),
  },
];
