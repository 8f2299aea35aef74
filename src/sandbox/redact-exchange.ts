/**
 * An exchange made fit to show: every secret replaced by a named placeholder, before anything else
 * (cutting, escaping, rendering) happens. Text becomes a list of pieces, plain text or a placeholder, so the
 * page shows `[ACCESS_TOKEN]` and the reproducing command writes `"$ACCESS_TOKEN"` from the same list: the
 * secret itself never reaches either.
 *
 * What counts as a secret, as tables: the headers (`Authorization`, `Webhook-Signature`, …), the form and
 * JSON fields (`client_secret`, `client_assertion`: an assertion can be replayed for minutes, …), any compact
 * JWT anywhere, and every secret value the tenant holds wherever it appears (raw or percent-encoded).
 * Run on the page's request only, never per request (src/sandbox/observe.ts keeps the raw exchange).
 */
import { capText } from '../escape.js';
import type { SandboxExchange } from './exchange.js';

/** Plain text, or where a secret was: the name of the environment variable that would hold it. */
export type Piece = string | { readonly secret: string };
export type Pieces = readonly Piece[];

/** One secret value of the tenant and its placeholder's name. */
export interface NamedSecret {
  readonly name: string;
  readonly value: string;
}

/** Headers whose whole value (after the scheme, for Authorization) is a secret, and its placeholder. */
const SECRET_HEADERS: Readonly<Record<string, string>> = {
  'webhook-signature': 'WEBHOOK_SIGNATURE',
  'proxy-authorization': 'PROXY_CREDENTIALS',
  cookie: 'COOKIE',
  // Where clients put a bearer token by mistake (the catalogue names each: mistakes/api-bearer.ts).
  'x-access-token': 'ACCESS_TOKEN',
  'access-token': 'ACCESS_TOKEN',
  'x-auth-token': 'ACCESS_TOKEN',
  'x-api-key': 'ACCESS_TOKEN',
  'api-key': 'ACCESS_TOKEN',
  token: 'ACCESS_TOKEN',
};

/** Form and JSON fields whose value is a secret, and its placeholder. */
const SECRET_FIELDS: Readonly<Record<string, string>> = {
  client_secret: 'CLIENT_SECRET',
  client_assertion: 'CLIENT_ASSERTION',
  access_token: 'ACCESS_TOKEN',
  refresh_token: 'REFRESH_TOKEN',
  assertion: 'ASSERTION',
  password: 'PASSWORD',
  token: 'ACCESS_TOKEN',
};

/** What the bearer in `Authorization` is, by the path it was sent to. */
const BEARER_BY_PATH: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/api\/v1\/webhooks\/incoming\//, 'WEBHOOK_JWT'],
  [/^\/__hooks\//, 'HOOKS_TOKEN'],
];

/** A compact JWS: three base64url parts, the first a JSON object (`eyJ`). */
const COMPACT_JWT = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

/** A JSON member whose name is a secret field, with its string value (the value captured). */
const JSON_SECRET_MEMBER = new RegExp(`("(?:${Object.keys(SECRET_FIELDS).join('|')})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)"`, 'g');

export interface RedactedExchange {
  readonly target: Pieces;
  readonly headers: ReadonlyArray<readonly [string, Pieces]>;
  readonly body: Pieces;
  /** Bytes of the body left out after {@link SHOWN_EXCHANGE_BYTES} (0 when whole). */
  readonly bodyMoreBytes: number;
  readonly responseBody: Pieces;
  readonly responseMoreBytes: number;
}

/** Bytes of a body shown (issue 45: bodies cut at 4 KiB). */
export const SHOWN_EXCHANGE_BYTES = 4096;

export function redactExchange(exchange: SandboxExchange, secrets: readonly NamedSecret[]): RedactedExchange {
  const path = exchange.target.split('?', 1)[0] as string;
  const [pathPart, query] = splitOnce(exchange.target, '?');
  const target = query === undefined ? scrub([pathPart], secrets) : scrub([pathPart, '?', ...redactForm(query)], secrets);
  const headers = Object.entries(exchange.requestHeaders)
    .filter((entry): entry is [string, string | readonly string[]] => entry[1] !== undefined)
    .map(([name, value]) => [name, redactHeader(name, typeof value === 'string' ? value : value.join(', '), path, secrets)] as const);
  const body = cutPieces(redactBody(Buffer.from(exchange.requestBody.buffer, exchange.requestBody.byteOffset, exchange.requestBody.byteLength).toString('utf8'), secrets));
  const response = cutPieces(redactBody(exchange.responseBody, secrets));
  return { target, headers, body: body.pieces, bodyMoreBytes: body.moreBytes, responseBody: response.pieces, responseMoreBytes: response.moreBytes };
}

function redactHeader(name: string, value: string, path: string, secrets: readonly NamedSecret[]): Pieces {
  const lower = name.toLowerCase();
  const whole = SECRET_HEADERS[lower];
  if (whole !== undefined) return value === '' ? [] : [{ secret: whole }];
  if (lower === 'authorization') {
    // The scheme stays (a Basic header at the token endpoint is a mistake worth seeing); what follows goes.
    const match = /^(\s*\S+)(\s+)([\s\S]*)$/.exec(value);
    if (match === null) return value === '' ? [] : [{ secret: 'AUTHORIZATION' }];
    const scheme = match[1] as string;
    const placeholder = /^\s*basic$/i.test(scheme) ? 'BASIC_CREDENTIALS' : (BEARER_BY_PATH.find(([pattern]) => pattern.test(path))?.[1] ?? 'ACCESS_TOKEN');
    return [scheme, match[2] as string, { secret: placeholder }];
  }
  return scrub([value], secrets);
}

/** A body as text: secret JSON members and form fields first, then JWTs and the tenant's secrets anywhere. */
function redactBody(text: string, secrets: readonly NamedSecret[]): Pieces {
  const json = splitBy([text], JSON_SECRET_MEMBER, (match) => [match[1] as string, { secret: SECRET_FIELDS[fieldName(match[1] as string)] as string }, '"']);
  return scrub(json.flatMap((piece) => (typeof piece === 'string' && piece.includes('=') ? redactForm(piece) : [piece])), secrets);
}

function fieldName(opening: string): string {
  return (/"([^"]+)"/.exec(opening)?.[1] ?? '') as string;
}

/** `a=1&client_secret=…`: each field whose (decoded) name is a secret field keeps its name, loses its value. */
function redactForm(text: string): Piece[] {
  const out: Piece[] = [];
  text.split('&').forEach((part, index) => {
    if (index > 0) out.push('&');
    const [name, value] = splitOnce(part, '=');
    const placeholder = value === undefined ? undefined : SECRET_FIELDS[decodeFormName(name)];
    if (placeholder === undefined) out.push(part);
    else out.push(`${name}=`, ...(value === '' ? [] : [{ secret: placeholder }]));
  });
  return out;
}

function decodeFormName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).trim().toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/** JWTs, then every tenant secret (raw and percent-encoded), in the plain pieces. */
function scrub(pieces: Pieces, secrets: readonly NamedSecret[]): Pieces {
  let out = splitBy(pieces, COMPACT_JWT, () => [{ secret: 'JWT' }]);
  for (const secret of secrets) {
    out = out.flatMap((piece) => (typeof piece === 'string' && piece.includes(secret.value) ? interleave(piece.split(secret.value), { secret: secret.name }) : [piece]));
    // Percent-encoded, in either case of hex digit (`%3A`, `%3a`), under a name of its own: the command
    // must send the bytes that arrived.
    const encoded = encodeURIComponent(secret.value);
    if (encoded !== secret.value) out = splitBy(out, new RegExp(encoded.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), () => [{ secret: `${secret.name}_URLENCODED` }]);
  }
  return out.filter((piece) => piece !== '');
}

/** Each plain piece cut where `pattern` matches, the match replaced by what `replace` gives. */
function splitBy(pieces: Pieces, pattern: RegExp, replace: (match: RegExpExecArray) => Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    if (typeof piece !== 'string') {
      out.push(piece);
      continue;
    }
    let last = 0;
    for (const match of piece.matchAll(new RegExp(pattern.source, pattern.flags))) {
      out.push(piece.slice(last, match.index), ...replace(match as RegExpExecArray));
      last = (match.index ?? 0) + match[0].length;
    }
    out.push(piece.slice(last));
  }
  return out;
}

function interleave(parts: string[], between: Piece): Piece[] {
  return parts.flatMap((part, index) => (index === 0 ? [part] : [between, part]));
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + separator.length)];
}

/** The first {@link SHOWN_EXCHANGE_BYTES} of the pieces (a placeholder counts as its name) and how much was left. */
function cutPieces(pieces: Pieces): { pieces: Piece[]; moreBytes: number } {
  const out: Piece[] = [];
  let room = SHOWN_EXCHANGE_BYTES;
  let moreBytes = 0;
  for (const piece of pieces) {
    const text = typeof piece === 'string' ? piece : piece.secret;
    if (room <= 0) {
      moreBytes += Buffer.byteLength(text, 'utf8');
      continue;
    }
    if (typeof piece !== 'string') {
      out.push(piece);
      room -= text.length;
      continue;
    }
    const cut = capText(piece, room);
    out.push(cut.text);
    room -= Buffer.byteLength(cut.text, 'utf8');
    moreBytes += cut.moreBytes;
    if (cut.moreBytes > 0) room = 0;
  }
  return { pieces: out, moreBytes };
}

/** Text of the sandbox's own (a diagnosis sentence) with any JWT or tenant secret in it replaced, as shown. */
export function redactText(text: string, secrets: readonly NamedSecret[]): string {
  return piecesText(scrub([text], secrets));
}

/** The pieces as the page shows them: a placeholder as `[NAME]`. */
export function piecesText(pieces: Pieces): string {
  return pieces.map((piece) => (typeof piece === 'string' ? piece : `[${piece.secret}]`)).join('');
}
