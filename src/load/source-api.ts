/**
 * API scenarios: token (the token endpoint, secret or signed-assertion method) and pages (entitlement pages
 * with a bearer token, cycling through every page of the largest app).
 */
import type { LoadRequest } from './load-transport.js';
import { createTargetClient } from '../client/index.js';
import { HarnessError } from '../errors.js';
import type { ResolvedProfile } from '../profile/types.js';
import { basePath } from './bodies.js';
import { startSigner, type SignerHandle } from './signer.js';
import { PrebuiltQueue, queueSource, type RequestSource } from './source.js';

export interface ApiSourceOptions {
  profile: ResolvedProfile;
  peakRate: number;
  tokenMethod?: 'secret' | 'assertion';
  pageSize?: number;
  /** Seconds the target's clock is ahead of local time (target-clock.ts): client assertions' iat/exp add it. */
  clockOffsetSeconds?: number;
}

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

function form(fields: Record<string, string>): Buffer {
  return Buffer.from(new URLSearchParams(fields).toString(), 'utf8');
}

export function tokenSource(options: ApiSourceOptions): RequestSource {
  const { clientId, clientSecret } = options.profile.credentials.primary;
  const path = `${basePath(options.profile.baseUrl)}/auth/v1/token`;
  const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const method = options.tokenMethod ?? 'secret';
  const details: Record<string, string | number> = { method };
  if (method === 'secret') {
    const body = form({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
    const queue = new PrebuiltQueue(
      (count) => Array.from({ length: count }, (): LoadRequest => ({ method: 'POST', path, headers, body })),
      options.peakRate,
      true,
    );
    return queueSource('token', 200, queue, details);
  }
  let signer: SignerHandle | undefined;
  const queue = new PrebuiltQueue(
    async (count) => {
      if (!signer) throw new HarnessError('INTERNAL', 'signer not started');
      const items = await signer.sign(count);
      return items.map((item): LoadRequest => ({
        method: 'POST',
        path,
        headers,
        body: form({ grant_type: 'client_credentials', client_assertion_type: ASSERTION_TYPE, client_id: clientId, client_assertion: item.token }),
      }));
    },
    options.peakRate,
    false,
  );
  return queueSource(
    'token',
    200,
    queue,
    details,
    async () => {
      signer = startSigner({ kind: 'client-assertion', clientId, clientSecret, audience: options.profile.tenantDomain, clockOffsetSeconds: options.clockOffsetSeconds });
      details.signing = `EdDSA client assertions in a ${signer.where === 'worker-thread' ? 'worker thread' : 'main-thread fallback'}`;
    },
    async () => {
      await signer?.close();
    },
  );
}

/** How often the pages scenario asks the client for its (cached, refreshed-before-expiry) token. */
const TOKEN_REFRESH_MS = 5000;

export function pagesSource(options: ApiSourceOptions): RequestSource {
  const entitlements = options.profile.apps.entitlements;
  const app = entitlements.large ?? entitlements.exact ?? entitlements.empty;
  if (!app) {
    throw new HarnessError('LOAD_CONFIG', 'the pages scenario needs an app under apps.entitlements in the profile', { field: '--scenario' });
  }
  const pageSize = options.pageSize ?? 25;
  const path = `${basePath(options.profile.baseUrl)}/api/v1/apps/${encodeURIComponent(app.appId)}/entitlements`;
  const client = createTargetClient(options.profile, { recordBodyBytes: 0 });
  let bearer = '';
  let queries: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let n = 0;
  const queue = new PrebuiltQueue(
    (count) => {
      const headers = { authorization: `Bearer ${bearer}`, accept: 'application/json' };
      const out: LoadRequest[] = [];
      for (let i = 0; i < count; i += 1) out.push({ method: 'GET', path: `${path}?${queries[n++ % queries.length]}`, headers });
      return out;
    },
    options.peakRate,
    true,
  );
  const details: Record<string, string | number> = { appId: app.appId, pageSize };
  return queueSource(
    'pages',
    200,
    queue,
    details,
    async () => {
      bearer = (await client.token('primary', 'secret')).accessToken;
      // Walk once to learn every page token, then cycle through all pages (first page included).
      const walk = await client.walkEntitlements(app.appId, { pageSize });
      queries = [`page_size=${pageSize}`];
      for (const page of walk.pages.slice(0, -1)) {
        queries.push(`page_size=${pageSize}&page_token=${encodeURIComponent(String(page.nextPageToken))}`);
      }
      details.pages = queries.length;
      client.recorder.clear();
      timer = setInterval(() => {
        client.token('primary', 'secret').then(
          (token) => {
            bearer = token.accessToken;
            client.recorder.clear();
          },
          () => {},
        );
      }, TOKEN_REFRESH_MS);
      timer.unref();
    },
    async () => {
      if (timer) clearInterval(timer);
      await client.close();
    },
  );
}
