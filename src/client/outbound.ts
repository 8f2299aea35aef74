/**
 * One way out (issue 47): every request a client object sends, whoever asks for it (a suite, the engine, a
 * reporter, a replay, a library caller's `request`), passes these rules in the transport's guard before
 * each attempt; a request no rule allows is `REQUEST_REFUSED` and never sent. The operation firewall
 * (firewall.ts) shapes an operation's URL before this; this decides what may leave at all.
 *
 * A TargetClient's rules, first match wins (the table `TARGET_RULES`):
 *   - the test hooks (`hooks.baseUrl`, test-hooks.md): `GET /clock`, `POST /clock` (the clock's advance),
 *     `GET /runs`; with no credential or the hooks' own token, and nothing else under that base;
 *   - on the profile's origins (baseUrl's, hooks.baseUrl's): GET anywhere;
 *   - on the baseUrl: POST to the token endpoint, to a webhook listener's path, or to a read of the run's
 *     plan (`ClientOptions.readOperations`, ruling 35);
 *   - nothing else: no other method, no other origin.
 * And for every request, whatever rule let it through: an access token the client obtained goes to the
 * baseUrl's origin only, the hooks' token to the hooks only.
 *
 * The description client (description-fetch.ts) has one rule of its own: a GET of exactly the URL the user
 * named, with no credential header.
 */
import { HarnessError } from '../errors.js';
import { refused } from './firewall.js';
import type { TransportRequest } from './transport-request.js';
import { listenerPath } from './webhooks.js';

/** What a TargetClient may reach: the profile's addresses, and the POSTs its plan reads. */
export interface OutboundScope {
  baseUrl: string;
  hooks?: { baseUrl: string; token?: string };
  /** A POST's path, below the baseUrl's path prefix, is a read of the run's plan (RequestFirewall.isReadPost). */
  isReadPost: (path: string) => boolean;
  /** An access token the client obtained (tokens.ts): sent to the baseUrl's origin only. */
  isAccessToken: (value: string) => boolean;
}

/** A request as the rules see it: method, parsed URL, its bearer value. */
interface Outgoing {
  method: string;
  url: URL;
  bearer: string | undefined;
  /** Any credential header at all (authorization, cookie): the description is fetched with none. */
  credential: boolean;
}

interface Places {
  base: URL;
  /** The baseUrl's path prefix, without a trailing slash ('' for none). */
  basePath: string;
  hooks: URL | undefined;
  hooksPath: string;
}

/** A rule: when it applies, and whether the request is allowed then (a reason when not). */
interface Rule {
  name: string;
  applies(req: Outgoing, at: Places, scope: OutboundScope): boolean;
  /** undefined: allowed; else why not (the request is refused, no later rule is tried). */
  problem(req: Outgoing, at: Places, scope: OutboundScope): string | undefined;
}

/** The test hooks' own verbs (test-hooks.md): path below hooks.baseUrl → the methods it answers. */
const HOOK_CALLS: Readonly<Record<string, readonly string[]>> = {
  '/clock': ['GET', 'POST'],
  '/runs': ['GET'],
};

const TOKEN_PATH = '/auth/v1/token';
/** A listener's path is this prefix and one encoded segment (webhooks.ts listenerPath). */
const LISTENER_PREFIX = listenerPath('x').slice(0, -1);

const onBase = (req: Outgoing, at: Places): boolean => req.url.origin === at.base.origin;
const belowBase = (req: Outgoing, at: Places): string | undefined =>
  req.url.pathname.startsWith(`${at.basePath}/`) ? req.url.pathname.slice(at.basePath.length) : undefined;

const TARGET_RULES: readonly Rule[] = [
  {
    name: 'the test hooks',
    // Hooks at the root of the API's origin must not swallow the API: there, only the hooks' own calls are theirs.
    applies: (req, at) =>
      at.hooks !== undefined &&
      req.url.origin === at.hooks.origin &&
      (at.hooksPath === '' ? Object.hasOwn(HOOK_CALLS, req.url.pathname) : req.url.pathname === at.hooksPath || req.url.pathname.startsWith(`${at.hooksPath}/`)),
    problem: (req, at, scope) => {
      const call = req.url.pathname.slice(at.hooksPath.length);
      const verbs = HOOK_CALLS[call];
      if (verbs === undefined || !verbs.includes(req.method)) return `${req.method} ${call || '/'} is not a call of the test hooks (GET /clock, POST /clock, GET /runs)`;
      if (req.bearer !== undefined && req.bearer !== scope.hooks?.token) return 'it carries a credential to the test hooks that is not the hooks\' own token';
      return undefined;
    },
  },
  {
    name: 'a GET on the profile\'s origins',
    applies: (req) => req.method === 'GET',
    problem: (req, at) => (onBase(req, at) || req.url.origin === at.hooks?.origin ? undefined : offOrigins(req, at)),
  },
  {
    name: 'a POST to the token endpoint, a webhook listener or a read of the run\'s plan',
    applies: (req) => req.method === 'POST',
    problem: (req, at, scope) => {
      if (!onBase(req, at)) return offOrigins(req, at);
      const path = belowBase(req, at);
      if (path === TOKEN_PATH) return undefined;
      if (path !== undefined && path.startsWith(LISTENER_PREFIX) && /^[^/]+$/.test(path.slice(LISTENER_PREFIX.length))) return undefined;
      if (path !== undefined && scope.isReadPost(path)) return undefined;
      return `a POST to ${path ?? req.url.pathname} is none the harness makes (the token endpoint, a webhook listener, a read of the run's plan)`;
    },
  },
];

function offOrigins(req: Outgoing, at: Places): string {
  const origins = [at.base.origin, ...(at.hooks && at.hooks.origin !== at.base.origin ? [at.hooks.origin] : [])].join(' or ');
  return `it would go to ${req.url.origin}, not the profile's origin ${origins}`;
}

function outgoing(req: TransportRequest): Outgoing | { unparseable: true } {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return { unparseable: true };
  }
  const header = (name: string): string | undefined => Object.entries(req.headers).find(([key]) => key.toLowerCase() === name)?.[1];
  const authorization = header('authorization');
  const bearer = authorization === undefined ? undefined : (/^bearer\s+(.+)$/i.exec(authorization)?.[1]?.trim() ?? authorization);
  return { method: req.method.toUpperCase(), url, bearer, credential: authorization !== undefined || header('cookie') !== undefined };
}

const what = (req: TransportRequest): string => `${req.method.toUpperCase()} ${shortUrl(req.url)}`;

/** The URL as a refusal names it: bounded, no query (it may hold a value the check generated). */
function shortUrl(url: string): string {
  return url.split(/[?#]/)[0]!.slice(0, 200);
}

/** The guard of a TargetClient's transport: the rule table above, then where each credential may go. */
export function targetOutbound(scope: OutboundScope): (req: TransportRequest) => void {
  const base = new URL(scope.baseUrl);
  const hooks = scope.hooks === undefined ? undefined : new URL(scope.hooks.baseUrl);
  const at: Places = { base, basePath: base.pathname.replace(/\/+$/, ''), hooks, hooksPath: hooks?.pathname.replace(/\/+$/, '') ?? '' };
  return (req) => {
    const parsed = outgoing(req);
    if ('unparseable' in parsed) throw refused(what(req), 'its URL is not an absolute URL');
    const rule = TARGET_RULES.find((candidate) => candidate.applies(parsed, at, scope));
    const problem = rule === undefined
      ? `${parsed.method} is never sent (only GET, and POST to the token endpoint, a webhook listener, a read of the run's plan or the clock hook)`
      : rule.problem(parsed, at, scope);
    if (problem !== undefined) throw refused(what(req), problem);
    if (parsed.bearer !== undefined && scope.isAccessToken(parsed.bearer) && parsed.url.origin !== base.origin) {
      throw refused(what(req), `it carries the run's access token to ${parsed.url.origin}, not the profile's baseUrl origin ${base.origin}`);
    }
    if (parsed.bearer !== undefined && parsed.bearer === scope.hooks?.token && rule?.name !== 'the test hooks') {
      throw refused(what(req), 'it carries the test hooks\' token somewhere other than the hooks');
    }
  };
}

/** The guard of the description client: a GET of exactly the URL the user named, with no credential. */
export function descriptionOutbound(descriptionUrl: string): (req: TransportRequest) => void {
  let named: string;
  try {
    named = new URL(descriptionUrl).href;
  } catch {
    throw new HarnessError('OPENAPI_UNREADABLE', 'the description\'s address is not an absolute URL', { hint: 'Give an http(s) URL, or the description as a file.' });
  }
  return (req) => {
    const parsed = outgoing(req);
    if ('unparseable' in parsed || parsed.url.href !== named) throw refused(what(req), 'the description client fetches the URL the user named and nothing else');
    if (parsed.method !== 'GET') throw refused(what(req), 'the description is fetched with GET only');
    if (parsed.credential) throw refused(what(req), 'the description is fetched without a credential');
  };
}
