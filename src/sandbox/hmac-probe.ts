/**
 * The HMAC candidates of one refused webhook: MACs computed under named transformations (another key,
 * hash, signing input or body), each compared with the WHOLE `Webhook-Signature` under a fixed list of
 * encodings. Never a prefix, a length or a partial match: a sandbox that says "your first bytes match"
 * lets anyone forge byte by byte. Every candidate needs the listener's secret (or is public data the
 * client already holds), so a match tells nothing to someone who does not hold the secret.
 *
 * Bounded: at most {@link MAX_MACS} MACs per refused request, whatever the catalogue asks.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ReferenceRequest } from '../reference/types.js';

export const MAX_MACS = 64;

export type HashName = 'sha256' | 'sha1' | 'sha512';

/** One way of computing the digest: what is keyed, hashed and joined. */
export interface MacRecipe {
  /** The key's bytes; undefined: no key at all (a plain hash, not an HMAC). */
  readonly key: Buffer | string | undefined;
  readonly hash: HashName;
  readonly parts: ReadonlyArray<Buffer | string>;
  readonly separator: string;
}

/** How a digest is written, and the words a sentence uses for it ('' for what §5.4 asks). */
interface Encoding {
  readonly name: string;
  readonly words: string;
  readonly encode: (digest: Buffer) => string;
}

const pad = (text: string): string => text + '='.repeat((4 - (text.length % 4)) % 4);

/** Fixed, in order: where two encodings write the same text, the first names it. */
const ENCODINGS: readonly Encoding[] = [
  { name: 'base64url', words: '', encode: (d) => d.toString('base64url') },
  { name: 'base64url-padded', words: 'base64url with "=" padding', encode: (d) => pad(d.toString('base64url')) },
  { name: 'base64', words: 'standard base64 ("+", "/", "=" padding)', encode: (d) => d.toString('base64') },
  { name: 'base64-unpadded', words: 'standard base64 ("+" and "/")', encode: (d) => d.toString('base64').replace(/=+$/, '') },
  { name: 'hex', words: 'hex', encode: (d) => d.toString('hex') },
  { name: 'hex-upper', words: 'upper-case hex', encode: (d) => d.toString('hex').toUpperCase() },
];

/** Scheme prefixes other webhook conventions put before the digest (GitHub, Stripe, Svix). */
const PREFIXES: readonly string[] = ['sha256=', 'sha1=', 'sha512=', 'v1=', 'v1,', 'sha256:', 'hmac-sha256='];

export interface MacMatch {
  /** The encoding's name and its words ('' when it is base64url without padding, as §5.4 asks). */
  readonly encoding: string;
  readonly encodingWords: string;
  /** A scheme prefix the signature carried, or ''. */
  readonly prefix: string;
}

export class HmacProbe {
  #macs = 0;
  #canonical: { value: { index: number; match: MacMatch } | undefined } | undefined;
  /** The signature without a known scheme prefix, and that prefix. */
  readonly #bare: { prefix: string; text: Buffer };

  constructor(
    readonly request: ReferenceRequest,
    signature: string,
  ) {
    const prefix = PREFIXES.find((p) => signature.toLowerCase().startsWith(p)) ?? '';
    this.#bare = { prefix: prefix === '' ? '' : signature.slice(0, prefix.length), text: Buffer.from(signature.slice(prefix.length), 'utf8') };
  }

  /** MACs computed so far (tests hold it to {@link MAX_MACS}). */
  get macs(): number {
    return this.#macs;
  }

  /** The canonical parts of §5.4: `Webhook-Timestamp`, `Webhook-Event-Id`, the raw body. */
  get parts(): { timestamp: string; eventId: string; body: Buffer } {
    return { timestamp: this.request.headers['webhook-timestamp'] ?? '', eventId: this.request.headers['webhook-event-id'] ?? '', body: this.request.body };
  }

  /** The canonical recipe's match, computed once for the several mistakes that read it. */
  canonical(make: () => { index: number; match: MacMatch } | undefined): { index: number; match: MacMatch } | undefined {
    this.#canonical ??= { value: make() };
    return this.#canonical.value;
  }

  /**
   * The first recipe whose digest, in one of the fixed encodings, is the whole signature. Undefined when
   * none is, or when the MAC budget is spent (a recipe past it is not computed).
   */
  match(recipes: readonly MacRecipe[]): { index: number; match: MacMatch } | undefined {
    for (let index = 0; index < recipes.length; index += 1) {
      if (this.#macs >= MAX_MACS) return undefined;
      const digest = this.#digest(recipes[index] as MacRecipe);
      const match = this.#encodingOf(digest);
      if (match !== undefined) return { index, match };
    }
    return undefined;
  }

  #digest(recipe: MacRecipe): Buffer {
    this.#macs += 1;
    const hash = recipe.key === undefined ? createHash(recipe.hash) : createHmac(recipe.hash, recipe.key);
    recipe.parts.forEach((part, index) => {
      if (index > 0) hash.update(recipe.separator);
      hash.update(part);
    });
    return hash.digest();
  }

  /** The encoding under which the digest is the whole signature (prefix aside), compared in constant time. */
  #encodingOf(digest: Buffer): MacMatch | undefined {
    const given = this.#bare.text;
    for (const encoding of ENCODINGS) {
      const expected = Buffer.from(encoding.encode(digest), 'utf8');
      if (expected.length === given.length && timingSafeEqual(expected, given)) {
        return { encoding: encoding.name, encodingWords: encoding.words, prefix: this.#bare.prefix };
      }
    }
    return undefined;
  }
}
