/**
 * Readings of the NumericDate claims (`exp`, `nbf`, `iat`; RFC 7519 §2) shared by the webhook-JWT and the
 * client-assertion faults and variants: each gives the claims a verifier goes on with, which the builders
 * then judge as the reference would (re-signed with the right key), or undefined when the reading changes
 * nothing and the reference decides.
 */

/** The optional NumericDate claims: §5.4 and §5.3 require `exp` only. */
const OPTIONAL_DATES = ['nbf', 'iat'] as const;

/**
 * A verifier that compares `exp` and `nbf` with the clock only when they are JSON numbers and otherwise
 * settles for their presence (ruling 25's MUST side): an unread `exp` as if valid (`validExp`), an unread
 * `nbf` as if absent.
 */
export function presenceOnlyClaims(payload: Record<string, unknown>, validExp: number): Record<string, unknown> | undefined {
  const unread = (['exp', 'nbf'] as const).filter((claim) => claim in payload && typeof payload[claim] !== 'number');
  if (unread.length === 0) return undefined;
  const seen: Record<string, unknown> = { ...payload };
  if (unread.includes('exp')) seen.exp = validExp;
  if (unread.includes('nbf')) delete seen.nbf;
  return seen;
}

/**
 * go-jose v2's and golang-jwt v5's reading (ruling 31): a JSON null in an optional NumericDate claim is an
 * absent claim (encoding/json leaves a pointer nil for `null`). `exp: null` is not touched: `exp` is required,
 * so a null one is still refused.
 */
export function nullDatesAbsent(payload: Record<string, unknown>): Record<string, unknown> | undefined {
  const nulls = OPTIONAL_DATES.filter((claim) => claim in payload && payload[claim] === null);
  if (nulls.length === 0) return undefined;
  const seen: Record<string, unknown> = { ...payload };
  for (const claim of nulls) delete seen[claim];
  return seen;
}
