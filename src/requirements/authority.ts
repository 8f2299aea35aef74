/**
 * Constructors for the {@link Authority} of a catalogue entry, one short call per entry so the area files
 * stay readable, and the one wording of an authority that `list` and the reports print.
 */
import type { Authority } from './types.js';

/** The RFCs the catalogue cites, by number, with the short name a reader knows them by. */
export const RFC_NAMES: Readonly<Record<number, string>> = {
  6749: 'OAuth 2.0',
  7230: 'HTTP/1.1 message syntax',
  7515: 'JWS',
  7518: 'JWA',
  7519: 'JWT',
  7523: 'JWT client authentication',
  8032: 'EdDSA',
  8259: 'JSON',
};

/** service.md, `section` (`5.4`, `7`), and its sentence quoted exactly (whitespace aside). */
export const spec = (section: string, quote: string): Authority => ({ kind: 'spec', section, quote });

/** An RFC requirement on the receiver: the number, the section and what it requires (paraphrased). */
export const rfc = (number: number, section: string, requirement: string): Authority => ({ kind: 'rfc', rfc: number, section, requirement });

/** A numbered ruling of rulings.md. */
export const ruling = (number: number): Authority => ({ kind: 'ruling', ruling: number });

/** The harness's own reading where the spec is silent: SHOULD or INFO, never MUST. */
export const reading = (why: string): Authority => ({ kind: 'reading', why });

/** One line: `service.md §5.4: "A mismatch gives 401."`, `RFC 7519 (JWT) §4.1.5: …`, `rulings.md 21`. */
export function describeAuthority(authority: Authority): string {
  switch (authority.kind) {
    case 'spec':
      return `service.md §${authority.section}: "${authority.quote}"`;
    case 'rfc':
      return `RFC ${authority.rfc}${RFC_NAMES[authority.rfc] ? ` (${RFC_NAMES[authority.rfc]})` : ''} §${authority.section}: ${authority.requirement}`;
    case 'ruling':
      return `rulings.md ruling ${authority.ruling}`;
    case 'reading':
      return `the harness's reading (at most SHOULD): ${authority.why}`;
  }
}

// Authorities several entries cite, written once.
export const secretFormat = spec('2.1', 'Prefix `secret-token:`, then a service-domain segment, then a version segment (`v1`), then a base64url-encoded JWK.');
export const ed25519Key = spec('2.1', 'It holds an `ed25519` private key.');
export const grantType = spec('4.1', 'grant_type | yes | `client_credentials`');
export const authenticatesClient = rfc(6749, '4.4.2', 'the authorization server MUST authenticate the client');
export const bearerHeader = spec('5.1', 'Every API request carries the header `Authorization: Bearer <ACCESS_TOKEN>`.');
export const belowTen = spec('4.4', 'A value below 10 acts as 10.');
export const unixSeconds = spec('4.3', 'current Unix time in seconds, as a decimal string');
export const invalidEventId = spec('7', 'event ID not a valid UUID v4 (invalid event ID)');
export const missingHeaders = spec('7', '400 | Missing headers');
export const invalidJson = spec('7', 'invalid JSON.');
export const jsonMediaType = spec('4.3', 'Content-Type | yes | `application/json`');
export const mismatch = spec('5.4', 'A mismatch gives 401.');
export const algorithms = spec('5.4', 'Supported algorithms: RS256, ES256, EdDSA. Key types: RSA, ECDSA, Ed25519.');
export const failsVerification = spec(
  '5.4',
  'A failed verification, an unreachable JWKS, an unmatched `kid`, a missing claim, an expired JWT or a missing Authorization header gives 401.',
);
export const expWindow = spec('5.4', 'exp | within 10 minutes of the current time');
export const secondRequest409 = spec('6', 'Idempotency: a second request with the same event ID for the same listener gets 409, and the automation is not run again.');
export const afterValidation = spec('6', 'After successful validation, the linked automation runs with the JSON body as context data.');
export const criticalHeader = rfc(7515, '4.1.11', 'a JWS whose `crit` lists an extension the recipient does not understand and support is invalid');
export const caseSensitive = rfc(7519, '2', 'StringOrURI values are compared as case-sensitive strings with no transformations or canonicalizations applied');
export const duplicateClaims = rfc(7519, '4', 'a JWT parser MUST reject duplicate claim names or keep only the lexically last one');
export const signerKey = spec('5.3', 'The client builds a JWT and signs it with the private JWK parsed from the Client Secret.');
