/**
 * Replays, step for step, what the official TypeScript SDK does with a Client ID and Client Secret,
 * against a spawned `serve` with no flags (real HTTP on 127.0.0.1): the token, the owner IDs, and the whole
 * entitlements walk. Written from reading ConductorOne/conductorone-sdk-typescript:
 *   - src/token.ts at commit 12afc376930379187d5d6db1e6838c3210f320a5 (Token.getToken)
 *   - src/index.ts at commit 04a1612fc87d78645142ca187793808ff873342e (Token gets serverURL as tokenUrl)
 *   - src/funcs/appOwnersListOwnerIDs.ts at 3bb6ae2928e99930363565032598b843c2aa14d6,
 *     src/funcs/appEntitlementsList.ts at 176766c58bf3311a317fbe9072591f326b458a27 (paths, query, Accept)
 *   - src/funcs/appsList.ts at 3dac3e86fd0da45b840a16c1514537cd8385bef5 (GET /api/v1/apps, page_size/page_token)
 *   - src/funcs/appEntitlementSearchSearch.ts at 176766c58bf3311a317fbe9072591f326b458a27 (POST JSON body,
 *     Content-Type application/json; its page iterator resends the request with `pageToken` = nextPageToken
 *     and stops when nextPageToken is not a string or is blank)
 * The SDK signs with jose; this file mirrors jose's compact serialisation with node:crypto and fetch only,
 * so it owes nothing to the harness's own client or crypto.
 *
 * The other official SDKs' secret decoders are checked on the same secret: Go (conductorone-sdk-go
 * token_source.go at 2bd43edbe939b6d36cb8d4d4342ca6aab295f2de) uses base64.RawURLEncoding (no padding
 * allowed); Python (conductorone-sdk-python src/sdk/tokensource.py at
 * 08c8954af0621ee3a9dd64f7ab7cbd69be953abc) uses base64.urlsafe_b64decode without adding padding, which
 * fails unless the text's length is a multiple of 4, and checks the domain like the TypeScript SDK.
 */
import { createPrivateKey, randomFillSync, sign } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from '../cli/support.js';

interface SandboxProfile {
  baseUrl: string;
  credentials: { primary: { clientId: string; clientSecret: string } };
  apps: {
    owners: { appId: string; ownerIds: string[] | null };
    entitlements: Record<'large' | 'exact' | 'empty', { appId: string; count: number }>;
  };
}

const assertionType = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const b64url = (bytes: Buffer | string): string => Buffer.from(bytes).toString('base64url');

/** Token.getToken, line by line (the SDK's thrown messages kept, so a refusal reads the same). */
async function officialGetToken(tokenUrl: string, clientID: string, clientSecret: string): Promise<{ token: string; assertion: string }> {
  const [name, domain, version, secret] = clientSecret.split(':');
  if (name !== 'secret-token') throw new Error('not a secret token');
  if (domain !== 'conductorone.com') throw new Error('wrong domain');
  if (version !== 'v1') throw new Error('incorrect client-secret version');
  // The SDK prefers globalThis.atob (Node has it): plain base64, which chokes on "-" and "_".
  const jsonStr = globalThis.atob(secret as string);
  const jwk = JSON.parse(jsonStr) as Record<string, string>;
  const alg = 'EdDSA';
  // jose.importJWK(jwk, 'EdDSA') for an OKP Ed25519 private JWK.
  const privateKey = createPrivateKey({ key: jwk, format: 'jwk' });

  let aud = tokenUrl;
  const { hostname } = new URL(aud);
  if (hostname) aud = hostname;

  const now = Math.floor(Date.now() / 1000);
  const nonce = new Uint8Array(16);
  randomFillSync(nonce);
  // new SignJWT({}).setProtectedHeader({ alg, nonce }).setIssuer().setSubject().setAudience([aud])
  //   .setExpirationTime(now + 120).setIssuedAt(now).setNotBefore(now - 120)
  const header = { alg, nonce: [...nonce].map((x) => x.toString(16).padStart(2, '0')).join('') };
  const payload = { iss: clientID, sub: clientID, aud: [aud], exp: now + 120, iat: now, nbf: now - 120 };
  const signingInput = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  const tokenStr = `${signingInput}.${b64url(sign(null, Buffer.from(signingInput), privateKey))}`;
  const body = { client_id: clientID, grant_type: 'client_credentials', client_assertion_type: assertionType, client_assertion: tokenStr };

  const resp = await fetch(new URL(`${tokenUrl}/auth/v1/token`).toString(), {
    method: 'POST',
    body: new URLSearchParams(body),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  if (resp.status !== 200) throw new Error(`Failed to get token: ${resp.status}`);
  const data = (await resp.json()) as { access_token?: unknown };
  const raw = String(data?.access_token ?? '');
  return { token: raw.replace(/^\s*bearer\s*:*/i, '').trim(), assertion: tokenStr };
}

/** The generated operations: path, query (undefined left out), Accept, and the bearer security. */
async function sdkGet(serverURL: string, path: string, token: string, query: Record<string, string | number | undefined> = {}): Promise<{ status: number; json: unknown }> {
  const url = new URL(`${serverURL}${path}`);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
  const resp = await fetch(url, { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } });
  return { status: resp.status, json: await resp.json() };
}

/** A generated search operation: the request object as the JSON body, Content-Type and Accept JSON. */
async function sdkPost(serverURL: string, path: string, token: string, body: Record<string, unknown>): Promise<{ status: number; json: unknown }> {
  const resp = await fetch(`${serverURL}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: resp.status, json: await resp.json() };
}

/** The SDK's page iterator (createPageIterator + nextFunc): the next request until the cursor ends. */
async function sdkIterate(first: () => Promise<{ status: number; json: unknown }>, next: (cursor: string) => Promise<{ status: number; json: unknown }>): Promise<unknown[]> {
  const items: unknown[] = [];
  let page = await first();
  for (let pages = 1; ; pages += 1) {
    expect(page.status).toBe(200);
    const body = page.json as { list?: unknown[] | null; nextPageToken?: unknown };
    items.push(...(body.list ?? []));
    const cursor = body.nextPageToken;
    if (typeof cursor !== 'string' || cursor.trim() === '') return items;
    expect(pages).toBeLessThan(100);
    page = await next(cursor);
  }
}

let dir: string;
let profile: SandboxProfile;
let serve: Awaited<ReturnType<typeof startServe>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-sdk-replay-'));
  const profilePath = join(dir, 'sandbox.target.json');
  // No flags but where the profile goes: what a client developer starts with.
  serve = await startServe(['--profile-out', profilePath], profilePath);
  profile = JSON.parse(await readFile(profilePath, 'utf8')) as SandboxProfile;
}, 90_000);

afterAll(async () => {
  await serve?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the official TypeScript SDK token code, replayed against serve', () => {
  it('gets a token with the signed assertion exactly as the SDK builds it (aud array, nbf −120 s, header nonce)', async () => {
    const { clientId, clientSecret } = profile.credentials.primary;
    const { token, assertion } = await officialGetToken(profile.baseUrl, clientId, clientSecret);
    expect(token.length).toBeGreaterThan(0);
    const [header] = assertion.split('.');
    expect(Object.keys(JSON.parse(Buffer.from(header as string, 'base64url').toString('utf8')))).toEqual(['alg', 'nonce']);
    // serve printed a ready snippet for this SDK (server URL, Client ID, the secret read from the profile)
    // and a ready send command; the secret itself never reaches its output.
    expect(serve.output()).toContain(`new ConductoroneSDKTypescript({ serverURL: '${profile.baseUrl}', clientID: '${clientId}'`);
    expect(serve.output()).toContain('clientSecret: profile.credentials.primary.clientSecret');
    expect(serve.output()).toMatch(/access-conformance send --profile '.*sandbox\.target\.json' --listener hmac/);
    expect(serve.output()).not.toContain(clientSecret);
  });

  it('lists the owner IDs with that token', async () => {
    const { token } = await officialGetToken(profile.baseUrl, profile.credentials.primary.clientId, profile.credentials.primary.clientSecret);
    const owners = await sdkGet(profile.baseUrl, `/api/v1/apps/${encodeURIComponent(profile.apps.owners.appId)}/ownerids`, token);
    expect(owners.status).toBe(200);
    expect(owners.json).toEqual({ userIds: profile.apps.owners.ownerIds });
  });

  it('walks every page of every entitlements app, page_token = the previous nextPageToken until ""', async () => {
    const { token } = await officialGetToken(profile.baseUrl, profile.credentials.primary.clientId, profile.credentials.primary.clientSecret);
    for (const app of Object.values(profile.apps.entitlements)) {
      const ids = new Set<string>();
      let pageToken: string | undefined;
      let pages = 0;
      do {
        const page = await sdkGet(profile.baseUrl, `/api/v1/apps/${encodeURIComponent(app.appId)}/entitlements`, token, { page_size: 50, page_token: pageToken });
        expect(page.status).toBe(200);
        const body = page.json as { list: Array<{ appEntitlement: { id: string } }>; nextPageToken: string };
        for (const item of body.list) ids.add(item.appEntitlement.id);
        pageToken = body.nextPageToken === '' ? undefined : body.nextPageToken;
        pages += 1;
        expect(pages).toBeLessThan(100);
      } while (pageToken !== undefined);
      expect(ids.size).toBe(app.count);
    }
  });

  it('iterates the entitlement search (pageToken in the body) and lists the apps page by page', async () => {
    const { token } = await officialGetToken(profile.baseUrl, profile.credentials.primary.clientId, profile.credentials.primary.clientSecret);
    const request = { pageSize: 100 };
    const entitlements = await sdkIterate(
      () => sdkPost(profile.baseUrl, '/api/v1/search/entitlements', token, request),
      (cursor) => sdkPost(profile.baseUrl, '/api/v1/search/entitlements', token, { ...request, pageToken: cursor }),
    );
    const total = Object.values(profile.apps.entitlements).reduce((sum, app) => sum + app.count, 0) + 5;
    expect(entitlements).toHaveLength(total);
    expect(entitlements[0]).toHaveProperty('appEntitlement.id');
    // appsList has no iterator in the SDK: the caller passes page_token itself, as here.
    const apps = await sdkIterate(
      () => sdkGet(profile.baseUrl, '/api/v1/apps', token, { page_size: 50 }),
      (cursor) => sdkGet(profile.baseUrl, '/api/v1/apps', token, { page_size: 50, page_token: cursor }),
    );
    expect(apps.length).toBeGreaterThan(100);
    expect(apps.map((app) => (app as { id: string }).id)).toContain(profile.apps.owners.appId);
    const searched = await sdkPost(profile.baseUrl, '/api/v1/search/apps', token, { appIds: [profile.apps.owners.appId] });
    expect(searched.json).toMatchObject({ list: [{ id: profile.apps.owners.appId }], nextPageToken: '' });
  });

  it('issues secrets the Go and Python SDK decoders take too (no padding needed, no URL-only characters)', () => {
    for (const { clientSecret } of Object.values(profile.credentials)) {
      const encoded = clientSecret.split(':')[3] as string;
      expect(encoded.length % 4).toBe(0); // Python: urlsafe_b64decode without added padding
      expect(encoded).not.toMatch(/[=]/); // Go: RawURLEncoding refuses padding
      expect(encoded).not.toMatch(/[-_]/); // TypeScript: atob refuses the URL-safe alphabet
    }
  });
});
