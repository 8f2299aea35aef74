/**
 * Secret redaction: the rules every stored exchange, report line and error message goes through.
 *
 * A secret can leave the harness in more shapes than its plain text: URL-encoded in a form body,
 * JSON-escaped, base64 or base64url encoded (Basic auth, a JWT payload, a JWK inside a Client Secret).
 * Each registered secret is therefore expanded into those shapes (secret-shapes.ts), including the base64 text it produces
 * when it sits at any byte offset inside a longer encoded value, and all shapes go into one regular
 * expression. Field- and header-based rules catch values the harness never registered (a token a faulty
 * target returns under the right name, a JWT it echoes).
 */

import { MIN_SECRET_CHARS, REDACTED, replaceShapes, secretShapes, shapesLongestFirst } from './secret-shapes.js';

export { REDACTED, replaceShapes, secretShapes, shapesLongestFirst };

/** Form and JSON fields whose values are credentials whatever they hold. */
const SECRET_FIELDS = [
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'client_assertion',
  'clientSecret',
  'accessToken',
];

/** Private parameters of a JWK (RFC 7518 §6.2.2, §6.3.2, §6.4). */
const PRIVATE_JWK_PARAMS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** JWT-shaped values (header and payload are base64url JSON objects): every JWT the harness handles is a credential. */
const JWT_PATTERN = /eyJ[A-Za-z0-9_-]{2,}\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;
const JWT_EXACT = /^eyJ[A-Za-z0-9_-]{2,}\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

const fieldAlternation = [...SECRET_FIELDS, ...PRIVATE_JWK_PARAMS.map((p) => `${p}`)].map(escapeRegExp).join('|');
/** `"field": "value` up to the closing quote or the end of a truncated text. */
const JSON_FIELD_PATTERN = new RegExp(`("(?:${fieldAlternation})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)`, 'g');
const FORM_FIELD_PATTERN = new RegExp(`((?:^|[&?])(?:${SECRET_FIELDS.map(escapeRegExp).join('|')})=)([^&\\s]*)`, 'g');

/** Shapes are indexed by their first characters (every shape is at least MIN_SECRET_CHARS long). */
const KEY_CHARS = MIN_SECRET_CHARS;

/**
 * Replaces any of a set of literal strings, leftmost first and, at one position, the longest: what one
 * regular expression `longest|…|shortest` does, without its cost. Such an expression tries every
 * alternative at every position of the text, and a run registers a hundred JWTs of ~11 shapes each, so
 * every recorded body paid for ~1,500 alternatives per character (most of a run's CPU). Here a position
 * costs one map lookup on its first characters; a hit then costs one set lookup per distinct shape length
 * in its bucket, however many secrets share those characters. (Secrets of one kind share their first
 * characters: a run over a thousand operations registers a thousand access tokens of one format, and a
 * per-shape comparison made every redaction cost as many comparisons as tokens registered so far.)
 * Shapes are added one at a time, without re-indexing the others.
 */
/**
 * The first-characters filter's index of the two characters at `i` (low bytes only: a collision is just a
 * position looked at more closely). Written out in the scan loop too: a call per position costs more than
 * the test itself in a run, whose V8 flags keep code in the baseline tiers (src/cli/v8-footprint.ts).
 */
function pairIndex(text: string, i: number): number {
  return ((text.charCodeAt(i) & 0xff) << 8) | (text.charCodeAt(i + 1) & 0xff);
}

class LiteralSet {
  /** By first KEY_CHARS characters: the shapes by length, and those lengths longest first. */
  private readonly byKey = new Map<string, { lengths: number[]; byLength: Map<number, Set<string>> }>();
  /**
   * A flag per first two characters of some shape: most positions of a text are rejected by one array
   * read, without cutting a key out of the text (which was most of the redaction's time).
   */
  private readonly starts = new Uint8Array(1 << 16);
  longest = 0;
  size = 0;

  constructor(shapes: Iterable<string> = []) {
    for (const shape of shapes) this.add(shape);
  }

  add(shape: string): void {
    const key = shape.slice(0, KEY_CHARS);
    let bucket = this.byKey.get(key);
    if (!bucket) this.byKey.set(key, (bucket = { lengths: [], byLength: new Map() }));
    let sameLength = bucket.byLength.get(shape.length);
    if (!sameLength) {
      bucket.byLength.set(shape.length, (sameLength = new Set()));
      bucket.lengths.push(shape.length);
      bucket.lengths.sort((a, b) => b - a);
    }
    if (sameLength.has(shape)) return;
    sameLength.add(shape);
    this.starts[pairIndex(shape, 0)] = 1;
    this.size += 1;
    this.longest = Math.max(this.longest, shape.length);
  }

  /** The longest shape that starts at `i`, or 0. */
  private matchAt(text: string, i: number): number {
    const bucket = this.byKey.get(text.slice(i, i + KEY_CHARS));
    if (bucket === undefined) return 0;
    for (const length of bucket.lengths) {
      if (i + length <= text.length && bucket.byLength.get(length)!.has(text.slice(i, i + length))) return length;
    }
    return 0;
  }

  replaceAll(text: string, replacement: string): string {
    let out = '';
    let copied = 0;
    const last = text.length - KEY_CHARS;
    const starts = this.starts;
    for (let i = 0; i <= last; ) {
      if (starts[((text.charCodeAt(i) & 0xff) << 8) | (text.charCodeAt(i + 1) & 0xff)] === 0) {
        i += 1;
        continue;
      }
      const length = this.matchAt(text, i);
      if (length === 0) {
        i += 1;
        continue;
      }
      out += text.slice(copied, i) + replacement;
      i += length;
      copied = i;
    }
    return copied === 0 ? text : out + text.slice(copied);
  }
}

function longestOf(shapes: Iterable<string>): number {
  let longest = 0;
  for (const shape of shapes) longest = Math.max(longest, shape.length);
  return longest;
}

/**
 * Holds the secrets and applies every rule. Secrets stay for the redactor's life, except JWTs (assertions,
 * webhook JWTs), kept in a bounded most-recent set: a long run builds thousands, old ones have expired,
 * and the JWT and header rules still catch them.
 */
export class Redactor {
  private readonly fixed = new Set<string>();
  private readonly dynamic = new Map<string, true>();
  /** Shapes per recent JWT, so a new one does not re-derive the shapes of the others (lasting ones are indexed once). */
  private readonly shapeCache = new Map<string, string[]>();
  private fixedSet: LiteralSet | null = null;
  private dynamicSet: LiteralSet | null = null;
  private fixedLongest = 0;
  private dynamicLongest = 0;
  /** Lasting secrets added since the index was last brought up to date. */
  private readonly pendingFixed: string[] = [];
  private dirtyDynamic = true;

  constructor(
    secrets: Iterable<string> = [],
    private readonly maxDynamic = 32,
  ) {
    for (const secret of secrets) this.addFixed(secret);
  }

  /** Returns true when the secret is new. */
  addFixed(secret: string): boolean {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_CHARS || this.fixed.has(secret)) return false;
    this.fixed.add(secret);
    this.pendingFixed.push(secret);
    return true;
  }

  /** Returns true when a new secret was kept for good (a token, a secret handed in), not a JWT. */
  add(secret: string): boolean {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_CHARS || this.fixed.has(secret)) return false;
    // Only JWTs are numerous (one per assertion and webhook) and the JWT rule catches them anyway once
    // they leave the bounded set; anything else (tokens, secrets handed in) is few and kept for good.
    if (!JWT_EXACT.test(secret)) return this.addFixed(secret);
    if (this.dynamic.has(secret)) {
      this.dynamic.delete(secret);
      this.dynamic.set(secret, true);
      return false;
    }
    this.dynamic.set(secret, true);
    if (this.dynamic.size > this.maxDynamic) {
      const oldest = this.dynamic.keys().next().value;
      if (oldest !== undefined) this.dynamic.delete(oldest);
    }
    this.dirtyDynamic = true;
    return false;
  }

  /** Each secret's shapes, derived once. */
  private shapesOf(secret: string): string[] {
    let cached = this.shapeCache.get(secret);
    if (!cached) {
      cached = secretShapes(secret);
      this.shapeCache.set(secret, cached);
    }
    return cached;
  }

  /**
   * The lasting secrets and the recent ones compile apart, so a new signature per webhook does not
   * re-index every profile secret; each set is a literal index (LiteralSet), not a regular expression.
   */
  private compiled(): Array<LiteralSet | null> {
    if (this.pendingFixed.length > 0) {
      // Lasting secrets only grow: each new one's shapes join the index, the others stay indexed.
      this.fixedSet ??= new LiteralSet();
      for (const secret of this.pendingFixed.splice(0)) for (const shape of secretShapes(secret)) this.fixedSet.add(shape);
      this.fixedLongest = this.fixedSet.longest;
    }
    if (this.dirtyDynamic) {
      // Forget the shapes of secrets that left the bounded set.
      for (const secret of this.shapeCache.keys()) if (!this.dynamic.has(secret)) this.shapeCache.delete(secret);
      const shapes = new Set([...this.dynamic.keys()].flatMap((secret) => this.shapesOf(secret)));
      this.dynamicSet = shapes.size === 0 ? null : new LiteralSet(shapes);
      this.dynamicLongest = longestOf(shapes);
      this.dirtyDynamic = false;
    }
    return [this.fixedSet, this.dynamicSet];
  }

  private replaceShapes(text: string): string {
    let out = text;
    for (const set of this.compiled()) if (set && set.size > 0) out = set.replaceAll(out, REDACTED);
    return out;
  }

  /** The longest shape: a text cut this far past a bound still holds any secret starting before it whole. */
  longestShape(): number {
    this.compiled();
    return Math.max(this.fixedLongest, this.dynamicLongest);
  }

  /**
   * Only the registered secrets' shapes and raw JWTs, no field rules: safe on a serialised document (JSON,
   * XML, HTML), where a field rule could eat a closing quote.
   */
  scrub(text: string): string {
    if (!text) return text;
    return this.replaceShapes(text).replace(JWT_PATTERN, REDACTED);
  }

  redact(text: string): string {
    if (!text) return text;
    let out = this.replaceShapes(text);
    out = out.replace(JWT_PATTERN, REDACTED);
    out = out.replace(JSON_FIELD_PATTERN, (_m, prefix: string, value: string) => (value === '' ? `${prefix}` : `${prefix}${REDACTED}`));
    out = out.replace(FORM_FIELD_PATTERN, (_m, prefix: string, value: string) => (value === '' ? prefix : `${prefix}${REDACTED}`));
    return out;
  }

  /**
   * An Authorization-style value: the scheme stays readable, the credential goes. A lone known scheme word
   * (`Bearer `) holds nothing secret and stays as sent, so reports can show that the token was missing.
   */
  redactCredentialHeader(value: string): string {
    const match = /^(\S+)(\s*)([\s\S]*)$/.exec(value);
    if (!match) return value;
    const [, first = '', space = '', rest = ''] = match;
    if (rest.trim() !== '') return `${first}${space}${REDACTED}`;
    return KNOWN_SCHEMES.has(first.toLowerCase()) ? value : REDACTED;
  }
}

const KNOWN_SCHEMES = new Set(['bearer', 'basic', 'digest', 'token', 'dpop', 'negotiate', 'hoba', 'mutual', 'apikey']);

/** Headers whose whole value is a credential. */
export const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization']);
/** Headers dropped to a marker entirely (they may hold session credentials). */
export const OPAQUE_HEADERS = new Set(['cookie', 'set-cookie', 'x-api-key']);

const redactorCache = new WeakMap<readonly string[], Redactor>();

/**
 * The recorder's rules applied to any text with a given list of secrets (e.g. `profile.secrets`), for
 * reporters and log lines outside a client. The compiled rules are reused for the same array.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let redactor = redactorCache.get(secrets);
  if (!redactor) {
    redactor = new Redactor(secrets);
    redactorCache.set(secrets, redactor);
  }
  return redactor.redact(text);
}
