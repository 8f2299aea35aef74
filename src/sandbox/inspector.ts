/**
 * The inspector: a page on the sandbox's own server that lists the latest requests it answered, each with
 * its status, listener, diagnosis, headers and body (secrets redacted), and the command that sends it
 * again; it polls for new ones while open, and shows the tenant's cheat-sheet.
 *
 * It lives under {@link INSPECTOR_PREFIX}, a path the service does not route (its routes are /auth, /api,
 * /openapi.json and /__hooks), behind a random token of 256 bits in the path: a wrong or missing token is
 * handed to the reference like any unknown path (its own 404), so the answer says nothing of the page. Its
 * own requests are not logged (the route sits in front of the observer), and without `serve` nothing of
 * this is installed: a conformance run's sandbox never has it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { visibleControls } from '../escape.js';
import type { ReferenceHandler, ReferenceResponse } from '../reference/types.js';
import type { Tenant } from '../tenant/types.js';
import { inspectorPage, PAGE_SECURITY_HEADERS } from './inspector-page.js';
import { piecesText, redactExchange, redactText, type NamedSecret } from './redact-exchange.js';
import type { RequestLog } from './request-log.js';
import { curlCommand, placeholdersOf, type ReproduceContext } from './reproduce.js';
import { tenantSecrets } from './tenant-secrets.js';

/** Not a route of the service (service.md §4–§6, the hooks under /__hooks): nothing it serves is shadowed. */
export const INSPECTOR_PREFIX = '/_sandbox/inspector/';
/** The page's feed, under the token: `requests.json?after=<seq>`. */
const FEED = 'requests.json';

export interface InspectorOptions {
  tenant: Tenant;
  log: RequestLog;
  /** curl's extra arguments (the CA file of --tls), read when the page asks (the profile is written after). */
  curlArgs: () => readonly string[];
  /** The text `serve` prints at start (read when the page is asked for). */
  cheatSheet: () => string;
}

export interface Inspector {
  /** The page's address, token included. */
  readonly url: string;
  /** Serves the inspector's paths, passes everything else to `inner`. */
  wrap(inner: ReferenceHandler): ReferenceHandler;
}

export function createInspector(options: InspectorOptions): Inspector {
  // 256 bits, base64url: the path segment is the only credential.
  const token = randomBytes(32).toString('base64url');
  const tokenDigest = digest(token);
  const base = `${INSPECTOR_PREFIX}${token}/`;
  const secrets = tenantSecrets(options.tenant);
  const listenerKeys = new Map(Object.entries(options.tenant.listeners).map(([key, listener]) => [listener.listenerId, key]));

  const route = (method: string, target: string): ReferenceResponse | undefined => {
    if (!target.startsWith(INSPECTOR_PREFIX)) return undefined;
    const [path, query] = target.slice(INSPECTOR_PREFIX.length).split('?', 2) as [string, string | undefined];
    const slash = path.indexOf('/');
    const given = slash === -1 ? path : path.slice(0, slash);
    // Compared as digests: equal length always, so the comparison's time says nothing of the token.
    if (!timingSafeEqual(digest(given), tokenDigest)) return undefined;
    const rest = slash === -1 ? '' : path.slice(slash + 1);
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    if (rest === '') return page(inspectorPage({ feed: `${base}${FEED}`, cheatSheet: options.cheatSheet() }), 'text/html; charset=utf-8');
    if (rest === FEED) {
      const after = Number(new URLSearchParams(query ?? '').get('after') ?? '0');
      const reproduce: ReproduceContext = { baseUrl: options.tenant.baseUrl, curlArgs: options.curlArgs() };
      return page(feed(options.log, Number.isSafeInteger(after) && after >= 0 ? after : 0, secrets, listenerKeys, reproduce), 'application/json; charset=utf-8');
    }
    return undefined;
  };

  return {
    url: `${options.tenant.baseUrl}${base}`,
    // Not async: a request for the API goes on to `inner` with no promise of this layer's own.
    wrap: (inner) => (request) => route(request.method, request.url) ?? inner(request),
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function page(body: string, contentType: string): ReferenceResponse {
  return { status: 200, headers: { 'content-type': contentType, ...PAGE_SECURITY_HEADERS }, body };
}

/** One row of the page, as the page's script reads it: text only, every secret already a placeholder. */
export interface InspectorRow {
  seq: number;
  at: string;
  method: string;
  target: string;
  status: number;
  durationMs: number;
  listener: string | null;
  listenerKey: string | null;
  /** The sentence of the answer's error_description (the diagnosis's, when it has one). */
  sentence: string | null;
  mistake: string | null;
  error: string | null;
  headers: Array<[string, string]>;
  body: string;
  bodyMoreBytes: number;
  response: string;
  responseMoreBytes: number;
  command: string;
  variables: string[];
}

function feed(log: RequestLog, after: number, secrets: readonly NamedSecret[], listenerKeys: ReadonlyMap<string, string>, reproduce: ReproduceContext): string {
  const rows = log.since(after).map(({ seq, exchange }): InspectorRow => {
    const redacted = redactExchange(exchange, secrets);
    const answer = exchange.status >= 400 ? answerFields(exchange.responseBody) : {};
    const diagnosis = exchange.diagnosis;
    const listener = exchange.listener ?? null;
    const shown = (text: string): string => visibleControls(text);
    return {
      seq,
      at: new Date(exchange.at).toISOString(),
      method: shown(exchange.method),
      target: shown(piecesText(redacted.target)),
      status: exchange.status,
      durationMs: Math.round(exchange.durationMs * 10) / 10,
      listener: listener === null ? null : shown(listener),
      listenerKey: listener === null ? null : (listenerKeys.get(listener) ?? null),
      sentence: nullable(diagnosis?.sentence ?? answer.description, (text) => shown(redactText(text, secrets))),
      mistake: nullable(diagnosis?.mistake, shown),
      error: nullable(answer.error, shown),
      headers: redacted.headers.map(([name, value]) => [shown(name), shown(piecesText(value))]),
      body: shown(piecesText(redacted.body)),
      bodyMoreBytes: redacted.bodyMoreBytes,
      response: shown(piecesText(redacted.responseBody)),
      responseMoreBytes: redacted.responseMoreBytes,
      command: shown(curlCommand(exchange.method, redacted, reproduce)),
      variables: placeholdersOf(redacted.target, ...redacted.headers.map(([, value]) => value), redacted.body),
    };
  });
  // `<` escaped as well: the feed is never markup, but nothing in it can end a script or start a tag.
  return JSON.stringify({ lastSeq: log.lastSeq, rows }).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function nullable(text: string | undefined, show: (text: string) => string): string | null {
  return text === undefined ? null : show(text);
}

/** `error` and `error_description` of a refused answer's JSON body, when they are strings. */
function answerFields(body: string): { error?: string; description?: string } {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; error_description?: unknown } | null;
    return {
      ...(typeof parsed?.error === 'string' ? { error: parsed.error } : {}),
      ...(typeof parsed?.error_description === 'string' ? { description: parsed.error_description } : {}),
    };
  } catch {
    return {};
  }
}
