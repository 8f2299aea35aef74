/**
 * Transport failures as harness errors: one stable code per kind of failure, a message that names the
 * request (never a secret: the caller redacts the URL) and a hint the user can act on.
 */
import { HarnessError, type HarnessErrorCode } from '../errors.js';

const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'EADDRNOTAVAIL', 'ENETDOWN']);
const DNS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);
const TIMEOUT = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT', 'ABORT_ERR', 'UND_ERR_ABORTED']);
/** The target answered something that is not HTTP/1.1 the parser accepts. */
const PROTOCOL = new Set(['UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'UND_ERR_HEADERS_OVERFLOW', 'UND_ERR_INFO']);

function isTlsCode(code: string): boolean {
  return (
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    code.startsWith('CERT_') ||
    code.startsWith('UNABLE_TO_') ||
    code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
    code === 'SELF_SIGNED_CERT_IN_CHAIN' ||
    code === 'HOSTNAME_MISMATCH' ||
    code === 'EPROTO'
  );
}

/** Codes found on the error and along its `cause` chain, outermost first. */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    const name = (current as { name?: unknown }).name;
    if (name === 'AbortError' || name === 'TimeoutError') codes.push('ABORT_ERR');
    // undici's parser errors carry no code when the status line itself is not HTTP.
    if (name === 'HTTPParserError' && typeof code !== 'string') codes.push('HPE_UNKNOWN');
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

export interface TransportContext {
  method: string;
  /** Already redacted. */
  url: string;
  timeoutMs: number;
  connectTimeoutMs: number;
  /** Set when our own overall timer fired (the abort then says nothing about why). */
  timedOut: boolean;
  /** Set when the client was closed while this request was in flight. */
  closed?: boolean;
}

function make(code: HarnessErrorCode, message: string, hint: string, cause: unknown): HarnessError {
  return new HarnessError(code, message, { hint, cause });
}

/** Maps whatever undici or node threw to a HarnessError; a HarnessError passes through. */
export function toTransportError(error: unknown, ctx: TransportContext): HarnessError {
  if (error instanceof HarnessError) return error;
  const { method, url } = ctx;
  const origin = safeOrigin(url);
  const codes = codesOf(error);
  const first = (set: Set<string>): string | undefined => codes.find((code) => set.has(code));

  if (ctx.closed) {
    return make('USAGE', `the client was closed while ${method} ${url} was in flight`,
      'Await every request before calling close().', error);
  }
  if (ctx.timedOut) {
    return make('TIMEOUT', `${method} ${url} got no complete answer within ${ctx.timeoutMs} ms`,
      'The target is slow or hung; raise the request timeout (--timeout) if it is only slow.', error);
  }
  if (codes.includes('UND_ERR_CONNECT_TIMEOUT')) {
    return make('TIMEOUT', `connecting to ${origin} for ${method} ${url} timed out after ${ctx.connectTimeoutMs} ms`,
      'Check that the host is reachable from this machine (firewall, VPN) and that the port is right.', error);
  }
  const dns = first(DNS);
  if (dns) {
    return make('DNS', `the host of ${origin} could not be resolved (${dns}) for ${method} ${url}`,
      'Check the host name in the profile (baseUrl, hooks.baseUrl) and this machine\'s DNS.', error);
  }
  const unreachable = first(UNREACHABLE);
  if (unreachable) {
    return make('TARGET_UNREACHABLE', `could not connect to ${origin} (${unreachable}) for ${method} ${url}`,
      'Check that the target is running and that the profile\'s URL points to it.', error);
  }
  const tls = codes.find(isTlsCode);
  if (tls) {
    return make('TLS', `the TLS handshake with ${origin} failed (${tls}) for ${method} ${url}`,
      'Trust the target\'s certificate with tls.caFile in the profile, or set tls.insecureSkipVerify for a test target.', error);
  }
  const timeout = first(TIMEOUT);
  if (timeout) {
    return make('TIMEOUT', `${method} ${url} got no complete answer in time (${timeout})`,
      'The target is slow or hung; raise the request timeout (--timeout) if it is only slow.', error);
  }
  const reset = first(RESET);
  if (reset) {
    return make('CONNECTION_RESET', `${origin} closed the connection before answering ${method} ${url} (${reset})`,
      'The target dropped the connection: check its logs for a crash or a proxy in between.', error);
  }
  const protocol = first(PROTOCOL) ?? codes.find((code) => code.startsWith('HPE_'));
  if (protocol) {
    return make('HTTP_PROTOCOL', `${origin} sent an answer to ${method} ${url} that is not valid HTTP (${protocol})`,
      'The target (or a proxy in front of it) wrote a malformed response: check its logs.', error);
  }
  const usage = ['UND_ERR_INVALID_ARG', 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH', 'UND_ERR_NOT_SUPPORTED', 'ERR_INVALID_URL', 'ERR_INVALID_ARG_TYPE'];
  if (codes.some((code) => usage.includes(code))) {
    const detail = error instanceof Error ? error.message : String(error);
    return make('USAGE', `the request ${method} ${url} cannot be sent: ${detail}`,
      'A header or URL given to the client is not allowed by HTTP; change the request.', error);
  }
  const detail = codes[0] ?? (error instanceof Error ? error.name : typeof error);
  return make('INTERNAL', `${method} ${url} failed unexpectedly (${detail})`,
    'This is a harness bug; please report it with the run\'s log.', error);
}

export function responseTooLarge(method: string, url: string, limit: number): HarnessError {
  return new HarnessError('RESPONSE_TOO_LARGE', `the answer to ${method} ${url} is larger than ${limit} bytes`,
    { hint: 'The target sent far more than expected; raise maxResponseBytes if that is legitimate.' });
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
