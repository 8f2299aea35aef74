/**
 * HMAC listeners (service.md §5.4, ruling 21): what a sender gets wrong when the signature does not match.
 * Each mistake is a fixed set of recipes tried against the whole signature (hmac-probe.ts): the key, the
 * hash, the signing input, the body signed, and how the digest is written. What §5.4 asks:
 * base64url without padding of HMAC-SHA256, keyed with the secret's UTF-8 bytes, over
 * `<Webhook-Timestamp>.<Webhook-Event-Id>.<raw body>`.
 */
import type { MacMatch, MacRecipe } from '../hmac-probe.js';
import type { RefusedRequest } from '../refused-request.js';
import { reserializations } from '../reserialize.js';
import type { Facts, Mistake, MistakeArea } from './types.js';

const MISMATCH = [{ status: 401, says: 'signature mismatch' }] as const;
const SIGN_THIS = 'sign <Webhook-Timestamp>.<Webhook-Event-Id>.<raw body>';

type Part = 'timestamp' | 'eventId' | 'body';
const PART_NAMES: Record<Part, string> = { timestamp: '<Webhook-Timestamp>', eventId: '<Webhook-Event-Id>', body: '<body>' };
const ORDERS: ReadonlyArray<readonly Part[]> = [
  ['eventId', 'timestamp', 'body'],
  ['body', 'timestamp', 'eventId'],
  ['timestamp', 'body', 'eventId'],
  ['eventId', 'body', 'timestamp'],
  ['body', 'eventId', 'timestamp'],
];
const SEPARATORS: ReadonlyArray<readonly [string, string]> = [
  [':', '":"'],
  [',', '","'],
  ['\n', 'line feeds'],
  [' ', 'spaces'],
  ['|', '"|"'],
  ['_', '"_"'],
];
const PARTIAL_INPUTS: ReadonlyArray<readonly Part[]> = [['body'], ['timestamp', 'body'], ['eventId', 'body']];

/** The listener's secret, when the refused request went to an HMAC listener. */
function secretOf(refused: RefusedRequest): string | undefined {
  const named = refused.listener;
  return named?.kind === 'HMAC' ? named.listener.secret : undefined;
}

function recipe(refused: RefusedRequest, changes: Partial<MacRecipe> & { order?: readonly Part[] } = {}): MacRecipe {
  const parts = refused.hmac.parts;
  const order = changes.order ?? ['timestamp', 'eventId', 'body'];
  return {
    key: 'key' in changes ? changes.key : secretOf(refused),
    hash: changes.hash ?? 'sha256',
    parts: changes.parts ?? order.map((part) => parts[part]),
    separator: changes.separator ?? '.',
  };
}

/** The encoding words a sentence adds when the digest was also written another way. */
function also(match: MacMatch): string {
  const words = [match.encodingWords === '' ? '' : `written as ${match.encodingWords}`, match.prefix === '' ? '' : `after the prefix "${match.prefix}"`].filter(Boolean);
  return words.length === 0 ? '' : ` (the digest was also ${words.join(' and ')}: send it bare, base64url without padding)`;
}

/** Tries the recipes made for a mistake; the facts of the first that matches, with `also` filled. */
function firstOf<T>(refused: RefusedRequest, candidates: ReadonlyArray<readonly [T, MacRecipe]>, facts: (candidate: T) => Record<string, string>): Facts | undefined {
  if (secretOf(refused) === undefined) return undefined;
  const found = refused.hmac.match(candidates.map(([, made]) => made));
  if (found === undefined) return undefined;
  return { ...facts((candidates[found.index] as readonly [T, MacRecipe])[0]), also: also(found.match) };
}

/** The right MAC, written another way: `test` says which way this mistake is. */
function canonicalWritten(test: (match: MacMatch) => boolean): (refused: RefusedRequest) => Facts | undefined {
  return (refused) => {
    if (secretOf(refused) === undefined) return undefined;
    const found = refused.hmac.canonical(() => refused.hmac.match([recipe(refused)]));
    return found !== undefined && test(found.match) ? { encoding: found.match.encodingWords, prefix: found.match.prefix } : undefined;
  };
}

const mistakes: readonly Mistake[] = [
  {
    code: 'hmac-digest-hex',
    explains: MISMATCH,
    checks: 'hex',
    detect: canonicalWritten((m) => m.prefix === '' && m.encoding.startsWith('hex')),
    sentence: 'Webhook-Signature is the right HMAC-SHA256 written as {encoding}: send it base64url-encoded without padding (RFC 4648 §5), not hex',
  },
  {
    code: 'hmac-digest-padded',
    explains: MISMATCH,
    checks: 'padding',
    detect: canonicalWritten((m) => m.prefix === '' && m.encoding === 'base64url-padded'),
    sentence: 'Webhook-Signature is the right HMAC-SHA256 with "=" padding: base64url without padding is required, leave the "=" off',
  },
  {
    code: 'hmac-digest-standard-base64',
    explains: MISMATCH,
    checks: 'standard base64',
    detect: canonicalWritten((m) => m.prefix === '' && m.encoding.startsWith('base64') && !m.encoding.startsWith('base64url')),
    sentence: 'Webhook-Signature is the right HMAC-SHA256 written as {encoding}: padding and the standard alphabet are refused, send base64url ("-" and "_") without padding',
  },
  {
    code: 'hmac-digest-prefixed',
    explains: MISMATCH,
    checks: 'scheme prefixes',
    detect: canonicalWritten((m) => m.prefix !== ''),
    sentence: 'Webhook-Signature starts with the prefix "{prefix}" (another service\'s convention): send the bare digest, base64url without padding',
  },
  {
    code: 'hmac-key-decoded-secret',
    explains: MISMATCH,
    checks: 'the key (the decoded secret)',
    detect: (refused) => firstOf(refused, [[0, recipe(refused, { key: Buffer.from(secretOf(refused) ?? '', 'base64url') })]], () => ({})),
    sentence: 'the HMAC key was the base64url-decoded secret: key HMAC-SHA256 with the secret string\'s UTF-8 bytes, exactly as shown, not decoded{also}',
  },
  {
    code: 'hmac-key-other-listener',
    explains: MISMATCH,
    checks: "other listeners' secrets",
    detect: (refused) => {
      const others = [...refused.sandbox.listeners.values()].filter((n) => n.kind === 'HMAC' && n.listener.listenerId !== refused.listenerId);
      return firstOf(
        refused,
        others.map((other) => [other.name, recipe(refused, { key: other.kind === 'HMAC' ? other.listener.secret : '' })] as const),
        (name) => ({ other: name, listener: refused.listener?.name ?? '' }),
      );
    },
    sentence: 'the HMAC key was the secret of another listener ({other}): each listener has its own secret, sign with this one\'s ({listener}){also}',
  },
  {
    code: 'hmac-key-client-secret',
    explains: MISMATCH,
    checks: 'the Client Secrets',
    detect: (refused) => {
      const credentials = Object.values(refused.tenant.credentials);
      return firstOf(refused, credentials.map((c) => [0, recipe(refused, { key: c.clientSecret })] as const), () => ({}));
    },
    sentence: 'the HMAC key was a Client Secret (an API credential): sign webhooks with the listener\'s HMAC secret{also}',
  },
  {
    code: 'hmac-hash-not-sha256',
    explains: MISMATCH,
    checks: 'SHA-1 and SHA-512',
    detect: (refused) =>
      firstOf(refused, [['SHA-1', recipe(refused, { hash: 'sha1' })], ['SHA-512', recipe(refused, { hash: 'sha512' })]] as const, (hash) => ({ hash })),
    sentence: 'the digest is HMAC-{hash}: the signature is HMAC-SHA256{also}',
  },
  {
    code: 'hmac-parts-order',
    explains: MISMATCH,
    checks: 'the order of the parts',
    detect: (refused) =>
      firstOf(refused, ORDERS.map((order) => [order, recipe(refused, { order })] as const), (order) => ({ order: order.map((p) => PART_NAMES[p]).join('.') })),
    sentence: 'the signing input had its parts in the order {order}: ' + SIGN_THIS + ', in that order{also}',
  },
  {
    code: 'hmac-parts-no-separator',
    explains: MISMATCH,
    checks: 'the separators',
    detect: (refused) => firstOf(refused, [[0, recipe(refused, { separator: '' })]], () => ({})),
    sentence: 'the signing input left out the periods between the parts: ' + SIGN_THIS + ', the three parts joined by "."{also}',
  },
  {
    code: 'hmac-parts-other-separator',
    explains: MISMATCH,
    checks: 'other separators',
    detect: (refused) => firstOf(refused, SEPARATORS.map(([separator, words]) => [words, recipe(refused, { separator })] as const), (separator) => ({ separator })),
    sentence: 'the signing input joined the parts with {separator}, not ".": ' + SIGN_THIS + '{also}',
  },
  {
    code: 'hmac-parts-missing',
    explains: MISMATCH,
    checks: 'a part left out',
    detect: (refused) =>
      firstOf(refused, PARTIAL_INPUTS.map((order) => [order, recipe(refused, { order })] as const), (order) => ({ signed: order.map((p) => PART_NAMES[p]).join('.') })),
    sentence: 'the signing input was {signed} only: ' + SIGN_THIS + ', all three parts{also}',
  },
  {
    code: 'hmac-body-reserialized',
    explains: MISMATCH,
    checks: 're-serialised bodies (2 and 4 spaces, tabs, sorted keys, other separators)',
    detect: (refused) => {
      const { timestamp, eventId } = refused.hmac.parts;
      const forms = reserializations(refused.request.body);
      return firstOf(refused, forms.map(({ form, bytes }) => [form, recipe(refused, { parts: [timestamp, eventId, bytes] })] as const), (form) => ({ form }));
    },
    sentence: 'the signature is over the body {form}, not over the raw bytes sent: serialise the body once, then sign and send those same bytes{also}',
  },
  {
    code: 'hmac-plain-hash',
    explains: MISMATCH,
    checks: 'a plain SHA-256',
    detect: (refused) => firstOf(refused, [[0, recipe(refused, { key: undefined })]], () => ({})),
    sentence: 'the signature is a plain SHA-256 of the signing input, with no key: it must be an HMAC-SHA256 keyed with the listener\'s secret{also}',
  },
];

export const WEBHOOK_HMAC_MISTAKES: MistakeArea = {
  area: 'webhook-hmac',
  title: 'HMAC signatures (§5.4)',
  mistakes,
  advice: [{ says: 'signature mismatch', advice: `${SIGN_THIS} with HMAC-SHA256 keyed with the secret's UTF-8 bytes, written base64url without padding` }],
};
