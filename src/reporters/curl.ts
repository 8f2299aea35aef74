/**
 * A failure's reproduction: the recorded request as one `curl` command a person can paste. The recorder
 * already replaced every secret with [REDACTED]; here each marker becomes a shell variable named after
 * what it stood for (`$ACCESS_TOKEN`, `$HMAC_SIGNATURE`, `$CLIENT_SECRET`), so the command carries no
 * value and says which one to export.
 */
import type { RecordedExchange } from '../client/types.js';
import { REDACTED } from '../client/redact.js';
import { shellLiteral } from '../escape.js';

/** Headers curl computes itself (copying them would break a changed body). */
const COMPUTED_HEADERS = new Set(['content-length', 'host', 'connection', 'transfer-encoding']);

const MARK = '\u0000VAR:';
const END = '\u0000';

function variableName(raw: string): string {
  const name = raw.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[A-Z]/.test(name) ? name : `SECRET_${name || 'VALUE'}`;
}

/** The variable a redacted header value stands for. */
function headerVariable(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'proxy-authorization') {
    const scheme = /^(\S+)\s/.exec(value)?.[1]?.toLowerCase();
    if (scheme === 'bearer' || scheme === 'dpop') return 'ACCESS_TOKEN';
    if (scheme === 'basic') return 'BASIC_CREDENTIALS';
    return 'AUTHORIZATION';
  }
  if (lower.includes('signature')) return 'HMAC_SIGNATURE';
  if (lower === 'cookie') return 'COOKIE';
  if (lower === 'x-api-key') return 'API_KEY';
  return variableName(lower);
}

/**
 * A credential header's value with its secret part as [REDACTED] even when the recorder kept it (a
 * webhook signature is not a secret to the recorder, but it is one to paste, and a stale one is useless):
 * `Bearer x` → `Bearer [REDACTED]`, a signature header → `[REDACTED]`.
 */
function credentialAsMarker(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'proxy-authorization') {
    const match = /^(\S+)(\s+)\S/.exec(value);
    return match ? `${match[1]}${match[2]}${REDACTED}` : REDACTED;
  }
  if (lower.includes('signature') || lower === 'cookie' || lower === 'x-api-key') return REDACTED;
  return value;
}

/** Replaces each [REDACTED] in `text` by a variable marker, named by the field it follows when there is one. */
function markSecrets(text: string, fallback: string): string {
  if (!text.includes(REDACTED)) return text;
  const escaped = REDACTED.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text
    .replace(new RegExp(`"([A-Za-z0-9_-]+)"(\\s*:\\s*")${escaped}`, 'g'), (_m, field: string, sep: string) => `"${field}"${sep}${MARK}${variableName(field)}${END}`)
    .replace(new RegExp(`(^|[&?])([A-Za-z0-9_.-]+)=${escaped}`, 'g'), (_m, lead: string, field: string) => `${lead}${field}=${MARK}${variableName(field)}${END}`)
    .split(REDACTED)
    .join(`${MARK}${fallback}${END}`);
}

/** One shell word: literal parts quoted, variable markers as "$NAME" (expanded by the shell). */
function shellWord(marked: string): string {
  const parts = marked.split(MARK);
  let word = parts[0] ? shellLiteral(parts[0]) : '';
  for (const part of parts.slice(1)) {
    const end = part.indexOf(END);
    word += `"$${part.slice(0, end)}"`;
    const rest = part.slice(end + END.length);
    if (rest) word += shellLiteral(rest);
  }
  return word || "''";
}

/** The variables a command needs, in order of first use. */
export function curlVariables(command: string): string[] {
  return [...new Set([...command.matchAll(/"\$([A-Z][A-Z0-9_]*)"/g)].map((m) => m[1]!))];
}

/**
 * The request of `exchange` as a curl command (one line). A body the recorder cut short is sent as far as
 * it was kept, and the command ends with a comment saying so.
 */
export function curlCommand(exchange: RecordedExchange): string {
  const { request } = exchange;
  // -g: brackets and braces in a URL are literal, not curl's globbing.
  const words = ['curl', '-sS', '-i', '-g'];
  if (request.method !== 'GET' || request.body) words.push('-X', /^[A-Z]+$/.test(request.method) ? request.method : shellLiteral(request.method));
  words.push(shellWord(markSecrets(request.url, 'SECRET')));
  for (const [name, value] of Object.entries(request.headers)) {
    if (COMPUTED_HEADERS.has(name.toLowerCase())) continue;
    words.push('-H', shellWord(markSecrets(`${name}: ${credentialAsMarker(name, value)}`, headerVariable(name, value))));
  }
  if (request.body) words.push('--data-binary', shellWord(markSecrets(request.body, 'SECRET')));
  let command = words.join(' ');
  if (request.bodyTruncated) command += `  # body cut at ${Buffer.byteLength(request.body ?? '', 'utf8')} of ${request.bodyBytes} bytes`;
  else if (!request.body && request.bodyBytes > 0) command += `  # the ${request.bodyBytes}-byte body was not recorded`;
  return command;
}
