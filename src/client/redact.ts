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
  private readonly starts = new Uint16Array(1 << 16);
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
    // A count, not a flag, so that remove() can clear it (saturating: a pair that common stays looked at).
    const pair = pairIndex(shape, 0);
    if (this.starts[pair]! < 0xffff) this.starts[pair]! += 1;
    this.size += 1;
    this.longest = Math.max(this.longest, shape.length);
  }

  /** Forgets a shape (`longest` stays: it only sizes the windows redaction looks at). */
  remove(shape: string): void {
    const bucket = this.byKey.get(shape.slice(0, KEY_CHARS));
    const sameLength = bucket?.byLength.get(shape.length);
    if (!bucket || !sameLength?.delete(shape)) return;
    if (sameLength.size === 0) {
      bucket.byLength.delete(shape.length);
      bucket.lengths.splice(bucket.lengths.indexOf(shape.length), 1);
      if (bucket.lengths.length === 0) this.byKey.delete(shape.slice(0, KEY_CHARS));
    }
    const pair = pairIndex(shape, 0);
    if (this.starts[pair]! < 0xffff) this.starts[pair]! -= 1;
    this.size -= 1;
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

  /** Whether some shape occurs in `text` (what replaceAll would change), stopping at the first. */
  occursIn(text: string): boolean {
    const last = text.length - KEY_CHARS;
    const starts = this.starts;
    for (let i = 0; i <= last; i += 1) {
      if (starts[((text.charCodeAt(i) & 0xff) << 8) | (text.charCodeAt(i + 1) & 0xff)] !== 0 && this.matchAt(text, i) !== 0) return true;
    }
    return false;
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

/**
 * Values made for one request (an HMAC signature), the most recent `bound` of them, indexed together: the
 * texts a check builds after the request (a failure message quoting a header) are redacted of them.
 */
export class RecentLiterals {
  private readonly byValue = new Map<string, string[]>();
  /** How many of the values hold each shape (two values may share one). */
  private readonly holders = new Map<string, number>();
  private readonly set = new LiteralSet();

  constructor(private readonly bound: number) {}

  /** Each value joins and leaves the index alone: one webhook's signature, not the whole set again. */
  add(value: string): void {
    if (this.byValue.has(value)) {
      // Most recent again.
      const shapes = this.byValue.get(value)!;
      this.byValue.delete(value);
      this.byValue.set(value, shapes);
      return;
    }
    const shapes = secretShapes(value);
    if (shapes.length === 0) return;
    this.byValue.set(value, shapes);
    for (const shape of shapes) {
      const count = this.holders.get(shape) ?? 0;
      this.holders.set(shape, count + 1);
      if (count === 0) this.set.add(shape);
    }
    if (this.byValue.size > this.bound) this.forget(this.byValue.keys().next().value as string);
  }

  private forget(value: string): void {
    for (const shape of this.byValue.get(value) ?? []) {
      const count = (this.holders.get(shape) ?? 1) - 1;
      if (count > 0) this.holders.set(shape, count);
      else {
        this.holders.delete(shape);
        this.set.remove(shape);
      }
    }
    this.byValue.delete(value);
  }

  replaceAll(text: string): string {
    return this.set.size === 0 ? text : this.set.replaceAll(text, REDACTED);
  }

  /** The values held now, oldest first. */
  snapshot(): string[] {
    return [...this.byValue.keys()];
  }

  holds(value: string): boolean {
    return this.byValue.has(value);
  }

  /** The longest shape ever held (it sizes windows, so it never shrinks). */
  get longest(): number {
    return this.set.longest;
  }

  occursIn(text: string): boolean {
    return this.set.size > 0 && this.set.occursIn(text);
  }
}

/**
 * Holds the secrets and applies every rule. Secrets stay for the redactor's life, except JWTs (assertions,
 * webhook JWTs), kept in a bounded most-recent set: a long run builds thousands, old ones have expired,
 * and the JWT and header rules still catch them.
 */
export class Redactor {
  private readonly fixed = new Set<string>();
  /** The recent JWTs, each joining and leaving the index alone (a run signs one per webhook and assertion). */
  private readonly dynamic: RecentLiterals;
  private fixedSet: LiteralSet | null = null;
  /** Lasting secrets added since the index was last brought up to date. */
  private readonly pendingFixed: string[] = [];

  constructor(secrets: Iterable<string> = [], maxDynamic = 32) {
    this.dynamic = new RecentLiterals(maxDynamic);
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
    this.dynamic.add(secret);
    return false;
  }

  /** The lasting secrets' index: each new one's shapes join it, the others stay indexed (they only grow). */
  private fixedIndex(): LiteralSet | null {
    if (this.pendingFixed.length > 0) {
      this.fixedSet ??= new LiteralSet();
      for (const secret of this.pendingFixed.splice(0)) for (const shape of secretShapes(secret)) this.fixedSet.add(shape);
    }
    return this.fixedSet;
  }

  private replaceShapes(text: string): string {
    const fixedSet = this.fixedIndex();
    const out = fixedSet && fixedSet.size > 0 ? fixedSet.replaceAll(text, REDACTED) : text;
    return this.dynamic.replaceAll(out);
  }

  /**
   * `redact` for a text read later (the recorder redacts an exchange when it is first read): the lasting
   * secrets as they are when the text is read (they only grow), the recent JWTs as they are then and those
   * of now that have left the set since.
   */
  pinned(): (text: string) => string {
    const held = this.dynamic.snapshot();
    return (text) => {
      if (!text) return text;
      let out = this.replaceShapes(text);
      for (const value of held) if (!this.dynamic.holds(value)) out = replaceShapes(out, shapesLongestFirst([value]));
      return this.fieldRules(out);
    };
  }

  /** The longest shape: a text cut this far past a bound still holds any secret starting before it whole. */
  longestShape(): number {
    return Math.max(this.fixedIndex()?.longest ?? 0, this.dynamic.longest);
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
    return this.fieldRules(this.replaceShapes(text));
  }

  /** Whether `redact` would change `text`: what a replay recipe asks of every value, without building the redacted text. */
  changes(text: string): boolean {
    if (!text) return false;
    const fixedSet = this.fixedIndex();
    if ((fixedSet && fixedSet.size > 0 && fixedSet.occursIn(text)) || this.dynamic.occursIn(text)) return true;
    return this.fieldRules(text) !== text;
  }

  /** The rules that need no registered secret: raw JWTs, credential fields of JSON and forms. */
  private fieldRules(text: string): string {
    let out = text.replace(JWT_PATTERN, REDACTED);
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
