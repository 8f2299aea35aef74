/**
 * The command that sends a logged request again, as it arrived: curl with the method, the target, the
 * headers a client sets and the body, every secret an environment variable (`"$CLIENT_SECRET"`), every
 * other byte a shell literal (src/escape.ts), so the command pastes and runs whatever the request held.
 */
import { shellLiteral } from '../escape.js';
import type { Piece, Pieces, RedactedExchange } from './redact-exchange.js';

/** Headers curl sets itself, or that describe the connection rather than the request. */
const LEFT_TO_CURL = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'expect', 'keep-alive', 'te', 'upgrade', 'accept-encoding']);

/** One shell word from pieces: literals quoted, placeholders as `"$NAME"` (expanded, never split). */
export function shellWord(pieces: Pieces): string {
  // Adjacent text joined first: one literal per run of text reads as the request did.
  const runs: Piece[] = [];
  for (const piece of pieces) {
    const last = runs.at(-1);
    if (typeof piece === 'string' && typeof last === 'string') runs[runs.length - 1] = last + piece;
    else runs.push(piece);
  }
  if (runs.length === 0) return "''";
  return runs.map((piece) => (typeof piece === 'string' ? shellLiteral(piece) : `"$${piece.secret}"`)).join('');
}

export interface ReproduceContext {
  /** The sandbox's base URL (no trailing slash). */
  baseUrl: string;
  /** Extra curl arguments, already shell words (e.g. `--cacert 'sandbox.ca.pem'` for --tls). */
  curlArgs?: readonly string[];
}

export function curlCommand(method: string, redacted: RedactedExchange, context: ReproduceContext): string {
  const words = ['curl', '-sS', ...(context.curlArgs ?? []), '-X', shellLiteral(method), shellWord([context.baseUrl, ...redacted.target])];
  for (const [name, value] of redacted.headers) {
    if (LEFT_TO_CURL.has(name.toLowerCase())) continue;
    words.push('-H', shellWord([`${name}: `, ...value]));
  }
  if (redacted.body.length > 0) words.push('--data-binary', shellWord(redacted.body));
  return words.join(' ');
}

/** The variables a command reads, in the order they appear, each once. */
export function placeholdersOf(...all: Pieces[]): string[] {
  return [...new Set(all.flatMap((pieces) => pieces.flatMap((piece) => (typeof piece === 'string' ? [] : [piece.secret]))))];
}
