/**
 * Shape of one entry of the requirements catalogue (src/requirements/catalogue.ts). Area files under
 * src/requirements/ each export a `{ [id]: RequirementSpec }` object declared `as const satisfies ...`, so
 * that the union of their keys is the {@link import('./catalogue.js').RequirementId} type and a typo in
 * a suite, a fault or a baseline fails `tsc`.
 */

/** MUST fails a run; SHOULD fails only with --strict (warning otherwise); INFO is recorded, never fails. */
export type Level = 'MUST' | 'SHOULD' | 'INFO';

/**
 * What a check needs from the target profile or the target. A check whose needs are missing is skipped
 * with a reason naming the need ("profile has no webhooks.jwt", "target offers no clock hook").
 */
export type Need =
  | 'credentials.ipRestricted'
  | 'credentials.ipRestricted.allowedCidrs'
  | 'credentials.expired'
  | 'apps.owners'
  | 'apps.owners.ownerIds'
  | 'apps.missingAppId'
  | 'apps.entitlements.large'
  | 'apps.entitlements.exact'
  | 'apps.entitlements.empty'
  | 'webhooks.hmac'
  | 'webhooks.hmacSecond'
  | 'webhooks.jwt'
  | 'webhooks.jwt.RS256'
  | 'webhooks.jwt.ES256'
  | 'webhooks.jwt.EdDSA'
  | 'webhooks.jwt.serveJwks'
  | 'webhooks.jwtUnreachableJwks'
  | 'webhooks.ipRestricted'
  | 'webhooks.ipRestricted.allowedCidrs'
  | 'webhooks.inactive'
  | 'hooks.clock'
  | 'hooks.runs'
  /** The run was given the service's OpenAPI description (`--openapi`, the profile's `"openapi"`). */
  | 'openapi';

/**
 * Where a requirement comes from (see authority.ts for the constructors). A MUST names service.md (section
 * and the sentence, quoted exactly), an RFC section that binds the receiver, or a ruling of rulings.md;
 * `reading` is the harness's own reading of what the spec leaves open, allowed for SHOULD and INFO only
 * (tests/requirements/authority.test.ts enforces both, and that every quote is really in service.md).
 */
export type Authority =
  | { readonly kind: 'spec'; readonly section: string; readonly quote: string }
  | { readonly kind: 'rfc'; readonly rfc: number; readonly section: string; readonly requirement: string }
  | { readonly kind: 'ruling'; readonly ruling: number }
  | { readonly kind: 'reading'; readonly why: string };

export interface RequirementSpec {
  /** service.md section, e.g. '5.4', or 'rulings' when only a ruling states it. */
  readonly section: string;
  /** The ruling number in rulings.md that settles it, when one does. */
  readonly ruling?: number;
  readonly level: Level;
  /** The sentence the check verifies, quoted or closely paraphrased from service.md / rulings.md. */
  readonly text: string;
  /** The suite group (one per spec area); equals the suite file's name without `.suite.ts`. */
  readonly group: string;
  readonly needs: readonly Need[];
  /** What the check rests on: a MUST never on the harness's own reading. */
  readonly authority: Authority;
  /** True when the check advances the target's clock: it runs last, alone. */
  readonly movesClock?: boolean;
  /**
   * Set for a check of every list and search operation (ruling 34): one result per called operation it
   * applies to (every one, the paginated ones, the POST searches, those with an item wrapper or a response
   * schema); src/engine/operation-keys.ts `appliesTo`.
   */
  readonly perOperation?: 'every' | 'paginated' | 'body' | 'wrapped' | 'schema';
}

export type Catalogue = Readonly<Record<string, RequirementSpec>>;
