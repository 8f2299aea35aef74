/**
 * The request firewall (ruling 35): every API call the client makes for an operation passes here before
 * the bearer token is attached. It goes out only when
 *   - its URL is on the origin of the profile's `baseUrl` (the URL is built, not joined as strings: a path
 *     `@host/…` or `//host/…` cannot turn into another host),
 *   - its path is the template with each parameter percent-encoded as one segment and keeps the template's
 *     shape (src/openapi/path-shape.ts: no dot segment, encoded `/` or `.`, `?`, `#`, `@`, `//`),
 *   - its method is GET, or POST to an operation the planner classified as a read (the run's plan, given
 *     as `ClientOptions.readOperations`),
 *   - it carries no method override (`X-HTTP-Method-Override`, `_method` in the query or the body).
 * A refused request is a HarnessError `REQUEST_REFUSED` naming the operation and the reason; it is never
 * sent, so nothing reaches the target or any other listener.
 */
import { HarnessError } from '../errors.js';
import { fillPath, METHOD_OVERRIDE_PARAMETERS, operationTitle, templateShapeProblem } from '../openapi/index.js';

/** What the client knows of an operation it may POST to: the planner's read, with its path as sent. */
export interface ReadOperation {
  method: string;
  /** The template. */
  path: string;
  /** The filled path (the plan's `sentPath`); the template when it has no parameters. */
  sentPath?: string;
}

/** An operation call: the template and its parameters (the client fills and encodes them). */
export interface OperationTarget {
  method: string;
  /** The description's path template, e.g. `/api/v1/apps/{app_id}/entitlements`. */
  path: string;
  operationId?: string;
  params?: Readonly<Record<string, string>>;
}

/** A request the firewall let through: its absolute URL, and the path actually sent (with its query). */
export interface AllowedRequest {
  url: string;
  sentPath: string;
}

/** The stable refusal: the operation, the reason, never sent. */
export function refused(what: string, reason: string): HarnessError {
  return new HarnessError('REQUEST_REFUSED', `${what} was not sent: ${reason} (ruling 35)`, {
    hint: 'The harness sends an operation\'s requests only to the profile\'s baseUrl origin, on the path its template resolves to, as GET or as POST to a read the plan names; `run --plan` lists what it would send and why not.',
  });
}

const OVERRIDES = new Set(METHOD_OVERRIDE_PARAMETERS);

export class RequestFirewall {
  private readonly base: URL;
  private readonly basePath: string;
  private readonly readPosts = new Set<string>();
  /** The reads' templates as patterns, each parameter one segment: what a sent POST's path may be. */
  private readonly readShapes: RegExp[] = [];

  constructor(baseUrl: string, readOperations: readonly ReadOperation[] = []) {
    this.base = new URL(baseUrl);
    // A baseUrl with a path prefix (`https://host/prefix`) keeps it; the operation's path follows it.
    this.basePath = this.base.pathname.replace(/\/+$/, '');
    for (const op of readOperations) {
      if (op.method.toUpperCase() !== 'POST') continue;
      this.readPosts.add(`POST ${op.path}`);
      this.readShapes.push(templatePattern(op.path));
      if (op.sentPath !== undefined) this.readPosts.add(`POST ${op.sentPath}`);
    }
  }

  /** An operation's request: the template filled, the query appended, method and origin checked. */
  operation(target: OperationTarget, query: ReadonlyArray<readonly [string, string]> = [], body?: unknown): AllowedRequest {
    const what = operationTitle(target);
    const filled = fillPath(target.path, target.params ?? {});
    if ('problem' in filled) throw refused(what, filled.problem);
    this.checkMethod(what, target.method, [`${target.method.toUpperCase()} ${target.path}`]);
    this.checkOverrides(what, query.map(([name]) => name), body);
    const search = query.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
    return this.resolve(what, filled.path, search);
  }

  /**
   * A call given as a filled path (the toolkit's `apiCall`): the path part must be a plain path already
   * (a `%XX` of a byte that cannot end or escape a segment is fine), the query is kept as written.
   */
  rawPath(method: string, pathAndQuery: string, body?: unknown): AllowedRequest {
    const cut = pathAndQuery.search(/[?#]/);
    const path = cut < 0 ? pathAndQuery : pathAndQuery.slice(0, cut);
    const rest = cut < 0 ? '' : pathAndQuery.slice(cut);
    const what = `${method.toUpperCase()} ${path}`;
    if (rest.startsWith('#')) throw refused(what, 'its path holds "#" (a fragment)');
    // Encoded bytes that stay inside their segment are read as plain characters for the shape check.
    const harmless = path.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => (isSegmentByte(Number.parseInt(hex, 16)) ? 'x' : escape));
    const problem = templateShapeProblem(harmless) ?? (/[{}]/.test(path) ? 'its path holds "{" or "}" (a template, not a filled path)' : undefined);
    if (problem !== undefined) throw refused(what, problem);
    this.checkMethod(what, method, [`${method.toUpperCase()} ${path}`]);
    const search = rest.slice(1);
    this.checkOverrides(what, search === '' ? [] : search.split('&').map((pair) => safeDecode(pair.split('=')[0] ?? '')), body);
    return this.resolve(what, path, search);
  }

  /**
   * Whether a POST's path as sent (below the baseUrl's path prefix, without the query) is a read of the
   * run's plan: the transport's last check (outbound.ts), after this firewall shaped the request.
   */
  isReadPost(path: string): boolean {
    if (/(^|\/)(\.|%2e){1,2}(\/|$)|%2f|%5c/i.test(path)) return false;
    return this.readPosts.has(`POST ${path}`) || this.readShapes.some((shape) => shape.test(path));
  }

  private checkMethod(what: string, method: string, keys: string[]): void {
    const upper = method.toUpperCase();
    if (upper === 'GET') return;
    if (upper === 'POST' && keys.some((key) => this.readPosts.has(key))) return;
    throw refused(what, upper === 'POST'
      ? 'a POST to an operation the run\'s plan does not classify as a read'
      : `${upper} is never sent for an operation (only GET, and POST to a read)`);
  }

  private checkOverrides(what: string, queryNames: readonly string[], body: unknown): void {
    const name = queryNames.find((candidate) => OVERRIDES.has(candidate.toLowerCase()));
    if (name !== undefined) throw refused(what, `its query carries the method override ${JSON.stringify(name)}`);
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const key = Object.keys(body).find((candidate) => OVERRIDES.has(candidate.toLowerCase()));
      if (key !== undefined) throw refused(what, `its body carries the method override ${JSON.stringify(key)}`);
    }
  }

  /** The absolute URL, built from the base's origin and checked to have stayed there, on exactly this path. */
  private resolve(what: string, path: string, search: string): AllowedRequest {
    const expected = `${this.basePath}${path}`;
    const url = new URL(this.base.origin);
    url.pathname = expected;
    url.search = search;
    if (url.origin !== this.base.origin) throw refused(what, `it would go to ${url.origin}, not the profile's baseUrl origin ${this.base.origin}`);
    if (url.pathname !== expected) throw refused(what, `its path ${JSON.stringify(expected)} resolves to ${JSON.stringify(url.pathname)}, another shape`);
    return { url: url.href, sentPath: `${url.pathname}${url.search}` };
  }
}

/** A template as a pattern of its sent paths: the literal parts as written, each `{name}` one non-empty segment. */
function templatePattern(template: string): RegExp {
  const parts = template.split(/\{[^}]*\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

/** A byte whose `%XX` stays inside its segment: anything but `/`, `\`, `.`, `%`, `?`, `#` and controls. */
function isSegmentByte(byte: number): boolean {
  return byte >= 0x20 && byte !== 0x7f && ![0x2f, 0x5c, 0x2e, 0x25, 0x3f, 0x23].includes(byte);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
