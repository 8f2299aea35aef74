import type { Catalogue } from './types.js';
import { criticalHeader, rfc, ruling, signerKey, spec } from './authority.js';

/**
 * Requirements of the token-attacks group: the token endpoint of service.md §4.1 and the client assertion
 * of §5.3 against the attacks JWT verifiers and OAuth servers have fallen to: keys carried in or referenced
 * by the assertion's header, `kid` injection, `crit`, EdDSA signature edge cases, inexact `iss`/`sub`
 * comparison, NumericDate claims of another type, and client credentials outside the form body. Every refusal is any 4xx without an
 * access_token (ruling 5). docs/attacks.md says where each comes from.
 */
const attack = { section: '5.3', level: 'MUST', group: 'token-attacks' } as const;

export const tokenAttackRequirements = {
  'TOK-X01': {
    ...attack,
    text: 'A key carried in the assertion\'s header is never trusted (CVE-2018-0114): an assertion signed by an attacker\'s key that its `jwk` header holds, or its `x5c` header certifies, is refused.',
    needs: [],
    authority: signerKey,
  },
  'TOK-X02': {
    ...attack,
    text: 'A key URL in the assertion\'s header is never followed: an assertion signed by an attacker\'s key whose `jku` or `x5u` names a harness URL is refused, and the target does not connect to that URL (SSRF).',
    needs: [],
    authority: signerKey,
  },
  'TOK-X03': {
    ...attack,
    text: 'The assertion is verified with the Client Secret\'s key whatever its `kid`: a `kid` that is a file path (HS256 over the empty key /dev/null yields) or a URL serving an attacker\'s JWKS is refused.',
    needs: [],
    authority: signerKey,
  },
  'TOK-X04': {
    ...attack,
    text: 'RFC 7515 §4.1.11: an assertion whose `crit` header lists an extension the service does not understand is refused, even when signed by the Client Secret\'s key.',
    needs: [],
    authority: criticalHeader,
  },
  'TOK-X05': {
    ...attack,
    text: 'RFC 8032 §5.1.7: an Ed25519 signature is 64 bytes: a valid assertion\'s signature with one byte appended, or its last byte cut, is refused.',
    needs: [],
    authority: rfc(8032, '5.1.7', 'an Ed25519 signature is two 32-octet halves; if decoding fails the signature is invalid'),
  },
  'TOK-X06': {
    ...attack,
    text: 'A signature made by the Client Secret\'s key over another assertion, put on an assertion with other claims, is refused.',
    needs: [],
    authority: rfc(7515, '5.2', 'a JWS whose signature does not validate against its signing input MUST be considered invalid'),
  },
  'TOK-X07': {
    ...attack,
    text: '`iss` is the Client ID exactly and checked on its own (RFC 7523 §3): with `sub` right, an `iss` in another case, with a suffix, or naming another credential of the tenant is refused.',
    needs: [],
    authority: ruling(3),
  },
  'TOK-X08': {
    ...attack,
    text: '`sub` is the Client ID exactly and checked on its own (RFC 7523 §3): with `iss` right, a `sub` in another case, with a suffix, or naming another credential of the tenant is refused.',
    needs: [],
    authority: ruling(3),
  },
  'TOK-X09': {
    ...attack,
    section: '4.1',
    level: 'SHOULD',
    text: '§4.1 "client credentials go in the request body, never in headers": a token request whose client_id and client_secret come only in `Authorization: Basic` SHOULD be refused (RFC 6749 §2.3.1 has a server support Basic).',
    needs: [],
    authority: spec('4.1', 'Client credentials go in the request body, never in headers.'),
  },
  'TOK-X10': {
    ...attack,
    section: '4.1',
    level: 'SHOULD',
    text: 'Client credentials go in the request body: a token request whose credentials (client_secret, or the client assertion) come only in the URL query string SHOULD be refused (RFC 6749 §2.3.1 forbids the client to send them in the URI).',
    needs: [],
    authority: spec('4.1', 'Client credentials go in the request body, never in headers.'),
  },
  // NumericDate claim types (RFC 7519 §2; rulings 25, 31), as for the webhook JWT (WH-JWT-X20, X22)
  'TOK-X11': {
    ...attack,
    ruling: 25,
    text: 'An assertion whose `exp` or `nbf` cannot be read as a time (a non-numeric string, an object, an array), or whose `exp` is null, is refused: `exp` is required, and a time that cannot be read cannot be enforced.',
    needs: [],
    authority: ruling(25),
  },
  'TOK-X12': {
    ...attack,
    ruling: 31,
    level: 'SHOULD',
    text: 'An assertion whose optional `nbf` or `iat` is null SHOULD be refused (go-jose v2 and golang-jwt v5 read a null as an absent claim, which lets nothing through that the signer did not sign).',
    needs: [],
    authority: ruling(31),
  },
} as const satisfies Catalogue;
