import type { Catalogue } from './types.js';
import { caseSensitive, criticalHeader, duplicateClaims, failsVerification, reading, rfc, ruling, spec } from './authority.js';

/**
 * Requirements of the webhook-jwt-attacks group: the webhook JWT of service.md §5.4 against the ways JWT
 * verifiers have been broken in practice (keys carried or referenced by the token, `kid` injection, `crit`,
 * ECDSA and EdDSA signature edge cases, NumericDate types and ranges, exact `aud`/`sub` comparison,
 * repeated claims, key rotation). Each check sends otherwise valid requests whose JWT carries one attack,
 * in several variants. docs/attacks.md says where each comes from and the rulings made here.
 */
const attack = { section: '5.4', level: 'MUST', group: 'webhook-jwt-attacks' } as const;

export const webhookJwtAttackRequirements = {
  // Keys carried in or referenced by the token (RFC 7515 §4.1.2–4.1.6; RFC 8725 §3.10)
  'WH-JWT-X01': {
    ...attack,
    text: 'A key carried in the JWT header is never trusted (CVE-2018-0114): a JWT signed by an attacker\'s key that its `jwk` header holds, or its `x5c` header certifies, gets 401, whatever its `kid`.',
    needs: ['webhooks.jwt'],
    authority: spec('2.5', 'JWKS URL | HTTPS URL | Supplied by the user when the method is JWT. The service fetches public keys from it.'),
  },
  'WH-JWT-X02': {
    ...attack,
    text: 'A key URL in the JWT header is never followed: a JWT signed by an attacker\'s key whose `jku` (JWKS) or `x5u` (certificate) names a harness URL gets 401, and the target does not connect to that URL (SSRF).',
    needs: ['webhooks.jwt'],
    authority: spec('2.5', 'JWKS URL | HTTPS URL | Supplied by the user when the method is JWT. The service fetches public keys from it.'),
  },
  'WH-JWT-X03': {
    ...attack,
    text: 'A `kid` is only a name looked up in the listener\'s JWKS: a `kid` that is a file path (HS256 over the empty key /dev/null yields), a URL serving an attacker\'s JWKS, or the empty string gets 401.',
    needs: ['webhooks.jwt'],
    authority: failsVerification,
  },
  'WH-JWT-X04': {
    ...attack,
    text: 'RFC 7515 §4.1.11: a JWT whose `crit` header lists an extension the service does not understand is refused (401), even when signed by a listed key.',
    needs: ['webhooks.jwt'],
    authority: criticalHeader,
  },
  'WH-JWT-X05': {
    ...attack,
    text: 'The key named by `kid` is used only with its own algorithm: a JWT whose `kid` names a key of another type than its `alg` (RSA kid with ES256, EC kid with EdDSA), signed by a listed key of that `alg`, gets 401.',
    needs: ['webhooks.jwt', 'webhooks.jwt.RS256', 'webhooks.jwt.ES256'],
    authority: spec('5.4', 'The JWT header carries a `kid` that matches a key in the JWKS.'),
  },
  // Signature edge cases (RFC 7518 §3.4, FIPS 186-4 §6.4, RFC 8032 §5.1.7)
  'WH-JWT-X06': {
    ...attack,
    text: 'ES256 signatures with r = 0 or s = 0 are invalid (CVE-2022-21449, "psychic signatures"): an all-zero signature, and a valid one with r or s zeroed, get 401.',
    needs: ['webhooks.jwt', 'webhooks.jwt.ES256'],
    authority: failsVerification,
  },
  'WH-JWT-X07': {
    ...attack,
    text: 'ES256 signature values must lie in [1, n−1]: a signature whose r or s is the group order n (≡ 0 mod n) gets 401.',
    needs: ['webhooks.jwt', 'webhooks.jwt.ES256'],
    authority: failsVerification,
  },
  'WH-JWT-X08': {
    ...attack,
    text: 'RFC 7518 §3.4: an ES256 signature is the 64-byte r‖s; the same valid r and s DER-encoded (ASN.1 SEQUENCE) get 401.',
    needs: ['webhooks.jwt', 'webhooks.jwt.ES256'],
    authority: rfc(7518, '3.4', 'an ES256 signature is the 64-octet R || S; a value of any other length fails validation'),
  },
  'WH-JWT-X09': {
    ...attack,
    text: 'A signature of the wrong length is invalid: a valid signature with one byte appended, or its last byte cut, gets 401 for every listed algorithm.',
    needs: ['webhooks.jwt'],
    authority: failsVerification,
  },
  'WH-JWT-X10': {
    ...attack,
    text: 'An EdDSA signature made by the listed key over another message (a valid JWT\'s signature on another event\'s claims) gets 401.',
    needs: ['webhooks.jwt', 'webhooks.jwt.EdDSA'],
    authority: failsVerification,
  },
  // Claim types and comparisons (RFC 7519 §2, §4.1)
  'WH-JWT-X11': {
    ...attack,
    ruling: 25,
    level: 'SHOULD',
    text: 'RFC 7519 §2: NumericDate claims are JSON numbers: `exp` or `nbf` as a numeric string of a valid time or a boolean, and `iat` as a string or a boolean, SHOULD get 401 (PyJWT reads a numeric string as the time it denotes and enforces it).',
    needs: ['webhooks.jwt'],
    authority: ruling(25),
  },
  'WH-JWT-X12': {
    ...attack,
    text: '`exp` values out of range are refused: 1e300, 2^53 + 1 and 1e400 (beyond every bound; not "no expiry") and a negative `exp` get 401.',
    needs: ['webhooks.jwt'],
    authority: spec('5.4', 'exp | within 10 minutes of the current time'),
  },
  'WH-JWT-X13': {
    ...attack,
    text: 'RFC 7519 §4.1.5: a JWT whose `nbf` is 5 minutes in the future is not yet valid: 401.',
    needs: ['webhooks.jwt'],
    authority: rfc(7519, '4.1.5', 'the JWT MUST NOT be accepted for processing before its nbf time'),
  },
  'WH-JWT-X14': {
    ...attack,
    text: '`aud` equals the listener URL exactly (RFC 7519 §2: case-sensitive, no normalisation): the URL with a trailing slash, another case, a suffix or a query, a prefix of it, or the tenant base URL gets 401.',
    needs: ['webhooks.jwt'],
    authority: caseSensitive,
  },
  'WH-JWT-X15': {
    ...attack,
    text: '`sub` equals the tenant base URL exactly: the base URL with a trailing slash, another case, a suffix (`…x`, `….evil.example`) or a path, or a prefix of it gets 401.',
    needs: ['webhooks.jwt'],
    authority: caseSensitive,
  },
  'WH-JWT-X16': {
    ...attack,
    level: 'SHOULD',
    text: 'Ruling: `aud` names one listener; an `aud` array holding the listener URL and another listener\'s URL (a token replayable on both, each with its own idempotency) SHOULD get 401.',
    needs: ['webhooks.jwt'],
    authority: reading('§5.4 names the listener URL as aud and says nothing of arrays; an array naming a second listener is a replay risk, not a stated rule'),
  },
  'WH-JWT-X17': {
    ...attack,
    text: 'RFC 7519 §4: with a claim repeated in the JSON, a parser must reject or keep the last one: a JWT whose repeated `aud`, `sub`, `jti` or `htb_s256` is wrong in its last occurrence gets 401.',
    needs: ['webhooks.jwt'],
    authority: duplicateClaims,
  },
  'WH-JWT-X18': {
    ...attack,
    level: 'SHOULD',
    text: 'Ruling: a JWT with a repeated claim SHOULD be refused outright (parser differentials): one whose repeated claim is wrong only in its first occurrence SHOULD get 401.',
    needs: ['webhooks.jwt'],
    authority: reading('RFC 7519 §4 lets a parser keep the last of a repeated claim; refusing outright only avoids parser differentials'),
  },
  // Key rotation (§5.4 step 2–3)
  'WH-JWT-X19': {
    ...attack,
    level: 'SHOULD',
    text: 'A key added to the listener\'s JWKS under a new `kid` (served by the harness mid-run) SHOULD be accepted within 20 s of being served: an unknown `kid` triggers a (rate-limited) refetch.',
    needs: ['webhooks.jwt', 'webhooks.jwt.serveJwks'],
    authority: reading('service.md does not say when the JWKS is fetched again; refetching on an unknown kid is common practice'),
  },
  'WH-JWT-X20': {
    ...attack,
    ruling: 25,
    authority: ruling(25),
    text: '`exp` or `nbf` whose value cannot be read as a time (a non-numeric string, an object, an array), and `exp: null`, get 401 (ruling 31 keeps a null `exp` MUST: `exp` is required).',
    needs: ['webhooks.jwt'],
  },
  'WH-JWT-X21': {
    ...attack,
    ruling: 25,
    authority: ruling(25),
    text: 'A time read from a numeric string still meets its rule: `exp` as the string of a time a minute past, or `nbf` as the string of a time 5 minutes ahead, gets 401.',
    needs: ['webhooks.jwt'],
  },
  'WH-JWT-X22': {
    ...attack,
    ruling: 31,
    level: 'SHOULD',
    authority: ruling(31),
    text: '`nbf: null` or `iat: null` (claims §5.4 never requires) SHOULD get 401: go-jose v2 and golang-jwt v5 read a null as an absent claim, which lets nothing through that the signer did not sign.',
    needs: ['webhooks.jwt'],
  },
} as const satisfies Catalogue;
