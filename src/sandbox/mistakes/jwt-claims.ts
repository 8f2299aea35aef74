/**
 * The claim mistakes a webhook JWT and a client assertion share: the NumericDate claims (`exp`, `nbf`,
 * `iat`) in the wrong unit or form, too far ahead, past, not yet valid; a malformed token; a repeated
 * member. Written once, made for each by its prefix, the words its refusals start with and its bounds.
 */
import type { RefusedRequest } from '../refused-request.js';
import { kindOf, offsetWords, seconds } from './shown.js';
import type { Facts, Mistake, Refusal } from './types.js';

export interface TokenKind {
  /** The code prefix: `jwt` (webhook JWTs), `assertion` (client assertions). */
  readonly prefix: string;
  /** What the sentence calls it. */
  readonly name: string;
  /** The reference's words before the reason: `JWT refused (`. */
  readonly refusedAs: string;
  readonly status: number;
  /** The longest `exp - now` accepted, seconds. */
  readonly maxExpSeconds: number;
}

export const refusedFor = (kind: TokenKind, ...reasons: string[]): Refusal[] => reasons.map((reason) => ({ status: kind.status, says: `${kind.refusedAs}${reason})` }));

const NUMERIC_DATES = ['exp', 'nbf', 'iat'] as const;
/** Past 10^11 a NumericDate is milliseconds (10^11 s is the year 5138). */
const MILLISECONDS_FROM = 1e11;

function numberClaim(refused: RefusedRequest, name: string): number | undefined {
  const value = refused.claim(name);
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function claimMistakes(kind: TokenKind): Mistake[] {
  const bound = seconds(kind.maxExpSeconds);
  return [
    {
      code: `${kind.prefix}-numeric-date-milliseconds`,
      explains: refusedFor(kind, 'exp-too-far', 'nbf-in-future', 'claim-invalid', 'expired'),
      checks: 'milliseconds',
      detect: (refused) => {
        const claim = NUMERIC_DATES.find((name) => (numberClaim(refused, name) ?? 0) >= MILLISECONDS_FROM);
        return claim === undefined ? undefined : { claim, seen: String(numberClaim(refused, claim)) };
      },
      sentence: `${kind.name}'s {claim} is {seen}, milliseconds: NumericDate claims are Unix seconds (divide by 1000)`,
    },
    {
      code: `${kind.prefix}-numeric-date-form`,
      // A number JSON cannot hold as a double (1e400) parses as Infinity, which passes for "too far ahead".
      explains: refusedFor(kind, 'exp-invalid', 'claim-invalid', 'nbf-in-future', 'expired', 'exp-too-far'),
      checks: 'the NumericDate form',
      detect: (refused) => {
        const claim = NUMERIC_DATES.find((name) => refused.claim(name) !== undefined && numberClaim(refused, name) === undefined);
        return claim === undefined ? undefined : { claim, seen: kindOf(refused.claim(claim)) };
      },
      sentence: `${kind.name}'s {claim} is {seen}: it must be a JSON number of Unix seconds, e.g. 1700000000`,
    },
    {
      code: `${kind.prefix}-exp-too-far`,
      explains: refusedFor(kind, 'exp-too-far'),
      checks: `exp against the ${bound} bound`,
      detect: (refused) => offsetFacts(refused, 'exp'),
      sentence: `${kind.name}'s exp is {offset} the server's time; it may be at most ${bound} ahead: set exp = now + a few minutes`,
    },
    {
      code: `${kind.prefix}-expired`,
      explains: refusedFor(kind, 'expired'),
      checks: 'exp against the clock',
      detect: (refused) => offsetFacts(refused, 'exp'),
      sentence: `${kind.name}'s exp is {offset} the server's time: it has expired; make a fresh one for each request (is the sender's clock right?)`,
    },
    {
      code: `${kind.prefix}-nbf-in-future`,
      explains: refusedFor(kind, 'nbf-in-future'),
      checks: 'nbf against the clock',
      detect: (refused) => offsetFacts(refused, 'nbf'),
      sentence: `${kind.name}'s nbf is {offset} the server's time: it is not valid yet (is the sender's clock ahead?)`,
    },
    {
      code: `${kind.prefix}-duplicate-member`,
      explains: refusedFor(kind, 'duplicate-member'),
      checks: 'repeated members',
      detect: () => ({}),
      sentence: `${kind.name} repeats a header parameter or claim: each name may appear once (parsers disagree on which copy wins)`,
    },
    {
      code: `${kind.prefix}-malformed`,
      explains: refusedFor(kind, 'malformed'),
      checks: 'the compact form',
      detect: (refused) => {
        const token = refused.jwt?.token ?? '';
        const parts = token.split('.').length;
        const decoded = refused.jwt?.decoded;
        const why =
          parts !== 3
            ? `it has ${parts} part${parts === 1 ? '' : 's'}, not 3`
            : decoded?.header === undefined
              ? 'its header is not base64url JSON'
              : decoded.payload === undefined
                ? 'its payload is not base64url JSON (a JWE, or padded or standard base64?)'
                : 'jose could not read it';
        return { why };
      },
      sentence: `${kind.name} is not a compact JWS: {why}; send header.payload.signature, each part base64url without padding`,
    },
  ];
}

function offsetFacts(refused: RefusedRequest, claim: string): Facts | undefined {
  const value = numberClaim(refused, claim);
  return value === undefined ? undefined : { offset: offsetWords(value, refused.now) };
}
