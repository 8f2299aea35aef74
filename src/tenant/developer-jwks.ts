/**
 * The JWT listener as the product sets it: its JWKS URL is the user's own (`serve --jwks-url`, or the
 * project's test-hook extension `/__hooks/v1/x-jwks-url`, docs/sandbox.md), so a developer tests with their
 * own keys. HTTPS as the product requires, trusting the system's CAs, the sandbox's local CA and a private
 * CA the developer names (`--jwks-ca`); plain `http://` only on a loopback address.
 *
 * From outside the reference: the tenant's `jwt` listener gets a configuration object of its own here (the
 * reference reads the listener's `jwksUrl` from that object on every webhook, so the hook sets it there),
 * and the reference's JWKS fetcher port is replaced by one that also takes loopback http.
 */
import { timingSafeEqual } from 'node:crypto';
import { HarnessError } from '../errors.js';
import { readBoundedFile } from '../profile/read-file.js';
import { HOOKS_PREFIX } from '../reference/hooks.js';
import { json } from '../reference/http.js';
import { createHttpsJwksFetcher, isLoopbackHost } from '../reference/jwks.js';
import type { JwksFetcher, JwtListenerConfig, ReferenceRequest, ReferenceResponse } from '../reference/types.js';
import type { SandboxCustomize, Tenant } from './types.js';

/** The project's extension of the test hooks (shared/profile/test-hooks.md is the contract's; `x-` is ours). */
export const JWKS_URL_HOOK = `${HOOKS_PREFIX}/x-jwks-url`;
/** A JWKS URL and a CA bundle are short; a body past this is not one. */
const HOOK_BODY_BYTES = 64 * 1024;

/** Why a JWKS URL is refused, in words; undefined when it is one the listener may use. */
export function jwksUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'it is not a URL';
  }
  if (url.username !== '' || url.password !== '') return 'it carries a user name or password';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') return isLoopbackHost(url.hostname) ? undefined : `plain http:// is accepted only on a loopback address (127.0.0.1, [::1], localhost), not ${url.hostname}: serve the JWKS over https`;
  return `it is ${url.protocol.replace(/:$/, '')}, not https (or http on a loopback address)`;
}

/** The URL as an error may echo it: a user name or password in it is a credential, never printed. */
function withoutUserinfo(text: string): string {
  try {
    const url = new URL(text);
    if (url.username === '' && url.password === '') return text;
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    // Not a URL: what stands before an `@` may still be a credential.
    return text.replace(/^([^/]*\/\/)?[^@/]*@/, '$1');
  }
}

/** `--jwks-url` checked as a usage error (exit 2), named. */
export function parseJwksUrlFlag(text: string): string {
  const problem = jwksUrlProblem(text);
  if (problem !== undefined) throw new HarnessError('USAGE', `--jwks-url: ${problem} (got "${withoutUserinfo(text).slice(0, 200)}")`, { field: '--jwks-url' });
  return new URL(text).href;
}

/** `--jwks-ca FILE`: PEM certificates, read through the profile room's bounded reader. */
export async function readJwksCaFlag(path: string): Promise<string> {
  let text: string;
  try {
    text = await readBoundedFile(path, { what: 'a CA file' });
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new HarnessError('USAGE', `--jwks-ca: cannot read ${path}: ${why}`, { field: '--jwks-ca', cause: error });
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new HarnessError('USAGE', `--jwks-ca: ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`, { field: '--jwks-ca' });
  }
  return text;
}

export interface DeveloperJwksOptions {
  /** The JWKS URL the `jwt` listener starts with (checked by {@link parseJwksUrlFlag}); default the tenant's. */
  url?: string;
  /** PEM of a private CA trusted for the developer's JWKS. */
  caPem?: string;
}

/**
 * What `serve` adds to the sandbox: the `jwt` listener's JWKS URL set (when given), the fetcher that takes
 * loopback http, and the hook that sets the URL while it runs (with --hooks).
 */
export function developerJwks(options: DeveloperJwksOptions): SandboxCustomize {
  let listener: JwtListenerConfig | undefined;
  let caPem = options.caPem;
  let fetcher: JwksFetcher | undefined;
  let base: { localCa?: string; timeoutMs?: number } = {};
  const makeFetcher = (): JwksFetcher => {
    const trusted = [base.localCa, caPem].filter((pem): pem is string => pem !== undefined).join('\n');
    return createHttpsJwksFetcher({ ...(trusted === '' ? {} : { caPem: trusted }), ...(base.timeoutMs === undefined ? {} : { timeoutMs: base.timeoutMs }), loopbackHttp: true });
  };
  return {
    tenant: (tenant) => {
      const own: JwtListenerConfig = { ...tenant.listeners.jwt.config, ...(options.url === undefined ? {} : { jwksUrl: options.url }) };
      listener = own;
      return {
        ...tenant,
        listeners: { ...tenant.listeners, jwt: { ...tenant.listeners.jwt, config: own } },
        reference: { ...tenant.reference, listeners: tenant.reference.listeners.map((config) => (config.listenerId === own.listenerId ? own : config)) },
      };
    },
    deps: (_deps, tenant) => {
      base = { localCa: tenant.reference.jwksCaPem, timeoutMs: tenant.reference.jwksTimeoutMs };
      fetcher = makeFetcher();
      // Read per fetch: the hook may trust another CA after the start.
      return { jwksFetcher: (url) => (fetcher as JwksFetcher)(url) };
    },
    // Not async around the API: every other request goes on to `inner` with no promise of this layer's own.
    wrapHandler: (inner, tenant) => (request) => {
      if (!tenant.hooks.enabled || listener === undefined || request.url.split('?', 1)[0] !== JWKS_URL_HOOK) return inner(request);
      return jwksUrlHook(request, tenant, listener);
    },
    // The hook's body is read whole up to its bound (the reference reads 1 KiB of a path it does not route).
    limitFor: (inner) => (method, url) => (url.split('?', 1)[0] === JWKS_URL_HOOK ? HOOK_BODY_BYTES : inner(method, url)),
  };

  /** The `x-jwks-url` hook: GET shows the listener's JWKS URL, POST sets it (and a CA to trust for it). */
  async function jwksUrlHook(request: ReferenceRequest, tenant: Tenant, listener: JwtListenerConfig): Promise<ReferenceResponse> {
    const refused = hookRefusal(request.headers.authorization, tenant, request.method, request.bodyExceeded === true);
    if (refused !== undefined) return refused;
    if (request.method === 'GET') return json(200, { listenerId: listener.listenerId, jwksUrl: listener.jwksUrl });
    let body: { jwksUrl?: unknown; caPem?: unknown };
    try {
      body = JSON.parse(request.body.toString('utf8')) as typeof body;
    } catch {
      return json(400, { error: 'invalid_request', error_description: 'send {"jwksUrl": "https://…", "caPem": "<optional PEM>"} as JSON' });
    }
    const url = typeof body?.jwksUrl === 'string' ? body.jwksUrl : '';
    const problem = url === '' ? 'jwksUrl is required' : jwksUrlProblem(url);
    if (problem !== undefined) return json(400, { error: 'invalid_request', error_description: `jwksUrl: ${problem}` });
    if (body.caPem !== undefined && (typeof body.caPem !== 'string' || !body.caPem.includes('-----BEGIN CERTIFICATE-----'))) {
      return json(400, { error: 'invalid_request', error_description: 'caPem must be PEM certificates' });
    }
    if (typeof body.caPem === 'string') {
      caPem = body.caPem;
      fetcher = makeFetcher();
    }
    listener.jwksUrl = new URL(url).href;
    return json(200, { listenerId: listener.listenerId, jwksUrl: listener.jwksUrl });
  }
}

/** The hooks' own rules (reference/hooks.ts): the bearer token, then the methods. */
function hookRefusal(authorization: string | undefined, tenant: Tenant, method: string, tooLarge: boolean): ReferenceResponse | undefined {
  const given = Buffer.from(/^\s*bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '');
  const expected = Buffer.from(tenant.hooks.token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return json(401, { error: 'unauthorized', error_description: 'the hooks token is required' }, { 'www-authenticate': 'Bearer realm="hooks"' });
  }
  if (method !== 'GET' && method !== 'POST') return json(405, { error: 'method_not_allowed', error_description: 'use GET, POST' }, { allow: 'GET, POST' });
  // The rest of the body was not read: the connection closes after the answer.
  if (tooLarge) return json(413, { error: 'payload_too_large', error_description: `at most ${HOOK_BODY_BYTES} bytes` }, { connection: 'close' });
  return undefined;
}

