import type { Catalogue } from './types.js';
import { algorithms, expWindow, failsVerification, rfc, spec } from './authority.js';

/**
 * Requirements of the webhook-jwt group (service.md §5.4 JWT, ruling 22): a `Bearer` JWT signed with
 * RS256, ES256 or EdDSA by a key of the listener's JWKS (matched by `kid`), carrying `sub`, `aud`, `exp`,
 * `jti`, `htm` and `htb_s256`; every failed verification gets 401.
 */
const jwt = { section: '5.4', ruling: 22, level: 'MUST', group: 'webhook-jwt' } as const;

export const webhookJwtRequirements = {
  'WH-JWT-01': {
    ...jwt,
    text: 'A webhook JWT signed with RS256 by a key whose `kid` is in the listener\'s JWKS, with every required claim, is accepted (200).',
    needs: ['webhooks.jwt', 'webhooks.jwt.RS256'],
    authority: algorithms,
  },
  'WH-JWT-02': {
    ...jwt,
    text: 'A webhook JWT signed with ES256 by a key whose `kid` is in the listener\'s JWKS, with every required claim, is accepted (200).',
    needs: ['webhooks.jwt', 'webhooks.jwt.ES256'],
    authority: algorithms,
  },
  'WH-JWT-03': {
    ...jwt,
    text: 'A webhook JWT signed with EdDSA (Ed25519) by a key whose `kid` is in the listener\'s JWKS, with every required claim, is accepted (200).',
    needs: ['webhooks.jwt', 'webhooks.jwt.EdDSA'],
    authority: algorithms,
  },
  'WH-JWT-04': {
    ...jwt,
    text: 'A missing Authorization header on a JWT listener gets 401.',
    needs: ['webhooks.jwt'],
    authority: failsVerification,
  },
  'WH-JWT-05': {
    ...jwt,
    text: 'The JWT is sent as `Authorization: Bearer <JWT>`: a valid JWT under another scheme gets 401.',
    needs: ['webhooks.jwt'],
    authority: spec('5.4', 'The JWT is sent as `Authorization: Bearer <JWT>`.'),
  },
  'WH-JWT-06': {
    ...jwt,
    text: 'A `kid` that matches no key in the JWKS (unmatched kid) gets 401.',
    needs: ['webhooks.jwt'],
    authority: failsVerification,
  },
  'WH-JWT-07': {
    ...jwt,
    level: 'SHOULD',
    text: 'The JWT header carries a `kid` that matches a key in the JWKS: a JWT without `kid` SHOULD get 401 (jose picks the one key of its algorithm; the signature is still checked).',
    needs: ['webhooks.jwt'],
    authority: spec('5.4', 'The JWT header carries a `kid` that matches a key in the JWKS.'),
  },
  'WH-JWT-08': {
    ...jwt,
    text: 'Only RS256, ES256 and EdDSA are supported: an unsigned JWT with `alg: none` gets 401.',
    needs: ['webhooks.jwt'],
    authority: algorithms,
  },
  'WH-JWT-09': {
    ...jwt,
    text: 'Only RS256, ES256 and EdDSA are supported: an HS256 JWT keyed with the public JWK as the shared secret gets 401.',
    needs: ['webhooks.jwt'],
    authority: algorithms,
  },
  'WH-JWT-10': {
    ...jwt,
    text: 'A JWT signed by a key that is not in the JWKS (same `kid`, another key) fails verification: 401.',
    needs: ['webhooks.jwt'],
    authority: failsVerification,
  },
  'WH-JWT-11': {
    ...jwt,
    text: 'A JWT without the required `sub` claim (missing claim) gets 401.',
    needs: ['webhooks.jwt'],
    authority: failsVerification,
  },
  'WH-JWT-12': {
    ...jwt,
    text: 'A JWT without the required `aud` claim (missing claim) gets 401.',
    needs: ['webhooks.jwt'],
    authority: failsVerification,
  },
  'WH-JWT-13': {
    ...jwt,
    text: 'A JWT without the required `exp` claim (missing claim) gets 401.',
    needs: ['webhooks.jwt'],
    authority: failsVerification,
  },
  'WH-JWT-14': {
    ...jwt,
    text: 'A JWT without the required `jti` claim (missing claim) gets 401.',
    needs: ['webhooks.jwt'],
    authority: failsVerification,
  },
  'WH-JWT-15': {
    ...jwt,
    text: 'A JWT without the required `htm` claim (missing claim) gets 401.',
    needs: ['webhooks.jwt'],
    authority: failsVerification,
  },
  'WH-JWT-16': {
    ...jwt,
    text: 'A JWT without the required `htb_s256` claim (missing claim) gets 401.',
    needs: ['webhooks.jwt'],
    authority: failsVerification,
  },
  'WH-JWT-17': {
    ...jwt,
    text: '`sub` must be the tenant base URL: a JWT whose `sub` is another tenant\'s URL gets 401.',
    needs: ['webhooks.jwt'],
    authority: spec('5.4', 'The service verifies the signature and the claims.'),
  },
  'WH-JWT-18': {
    ...jwt,
    text: '`aud` must be the full webhook endpoint URL of the listener: a JWT whose `aud` is another listener\'s URL gets 401.',
    needs: ['webhooks.jwt'],
    authority: spec('5.4', 'The service verifies the signature and the claims.'),
  },
  'WH-JWT-19': {
    ...jwt,
    text: '`jti` must equal the Webhook-Event-Id header: a JWT whose `jti` is another UUID v4 gets 401.',
    needs: ['webhooks.jwt'],
    authority: spec('5.4', 'The service verifies the signature and the claims.'),
  },
  'WH-JWT-20': {
    ...jwt,
    text: '`htm` must be `POST`: a JWT with `htm: GET` gets 401.',
    needs: ['webhooks.jwt'],
    authority: spec('5.4', 'The service verifies the signature and the claims.'),
  },
  'WH-JWT-21': {
    ...jwt,
    text: '`htb_s256` must be the SHA-256 of the request body: a JWT carrying the hash of another body gets 401.',
    needs: ['webhooks.jwt'],
    authority: spec('5.4', 'The service verifies the signature and the claims.'),
  },
  'WH-JWT-22': {
    ...jwt,
    text: 'An expired JWT (`exp` five minutes in the past) gets 401.',
    needs: ['webhooks.jwt'],
    authority: failsVerification,
  },
  'WH-JWT-23': {
    ...jwt,
    text: '`exp` must be within 10 minutes of the current time: a JWT with `exp` 15 minutes ahead gets 401.',
    needs: ['webhooks.jwt'],
    authority: expWindow,
  },
  'WH-JWT-24': {
    ...jwt,
    text: 'Body integrity under JWT is through `htb_s256` over the raw bytes: the signed JSON re-formatted after signing (same value, other bytes) gets 401.',
    needs: ['webhooks.jwt'],
    authority: spec('5.4', 'Body integrity: under HMAC through the signature input, under JWT through `htb_s256`.'),
  },
  'WH-JWT-25': {
    ...jwt,
    text: 'An unreachable JWKS gives 401.',
    needs: ['webhooks.jwtUnreachableJwks'],
    authority: failsVerification,
  },
  'WH-JWT-26': {
    ...jwt,
    text: '`exp` "within 10 minutes of the current time": a JWT with `exp` 8 minutes ahead is accepted (200).',
    needs: ['webhooks.jwt'],
    authority: expWindow,
  },
  'WH-JWT-27': {
    ...jwt,
    text: '`htb_s256` is base64url (no padding): the body\'s SHA-256 in hex is not the body hash: 401.',
    needs: ['webhooks.jwt'],
    authority: spec('5.4', 'htb_s256 | base64url (no padding) SHA-256 hash of the request body'),
  },
  'WH-JWT-28': {
    ...jwt,
    level: 'INFO',
    text: '`aud` as a one-element array holding the listener URL (allowed by RFC 7519, not mentioned by §5.4): accept or refuse is recorded.',
    needs: ['webhooks.jwt'],
    authority: rfc(7519, '4.1.3', 'aud is a single string or an array of strings, and the recipient must identify itself with one of them'),
  },
} as const satisfies Catalogue;
