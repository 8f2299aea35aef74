/**
 * The JWKS server: public halves only, at the serveJwks path over HTTPS with the profile's certificate;
 * a key can be left out and the server can drop connections for a while.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetClient, startJwksServer, startProfileJwksServers, type JwksServer } from '../../src/client/index.js';
import type { TargetClient } from '../../src/client/types.js';
import { createLocalCa, issueServerCertificate, type PemPair } from '../../src/crypto/index.js';
import type { ResolvedJwtListener } from '../../src/profile/types.js';
import { makeProfile, makeSecrets, type TestSecrets } from './support/fixtures.js';

let secrets: TestSecrets;
let ca: PemPair;
let leaf: PemPair;
let listener: ResolvedJwtListener;
let server: JwksServer;
/** A client per origin: the JWKS servers are origins of their own, and a client GETs only on its profile's (outbound.ts). */
const clients = new Map<string, TargetClient>();
function get(url: string): ReturnType<TargetClient['request']> {
  const origin = new URL(url).origin;
  let client = clients.get(origin);
  if (client === undefined) {
    client = createTargetClient(makeProfile(origin, secrets, { hooks: undefined, tls: { ca: ca.certPem, insecureSkipVerify: false } }), { timeoutMs: 2000 });
    clients.set(origin, client);
  }
  return client.request({ method: 'GET', url });
}

beforeAll(async () => {
  secrets = await makeSecrets();
  ca = await createLocalCa('jwks test CA');
  leaf = await issueServerCertificate(ca, { ipAddresses: ['127.0.0.1'], dnsNames: [] });
  listener = {
    listenerId: 'wh_jwt',
    signingKeys: secrets.jwtKeys,
    serveJwks: { url: 'https://127.0.0.1:0/keys/jwks.json', tlsCert: leaf.certPem, tlsKey: leaf.keyPem },
  };
  server = await startJwksServer(listener);
});

afterAll(async () => {
  await Promise.all([...clients.values()].map((client) => client.close()));
  await server.close();
});

describe('JWKS server', () => {
  it('serves the public halves of every key at the URL path', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/keys\/jwks\.json$/);
    expect(server.url).not.toContain(':0/');
    const response = await get(server.url);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    const jwks = response.json() as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys.map((k) => k.kid)).toEqual(secrets.jwtKeys.map((k) => k.kid));
    for (const key of jwks.keys) {
      for (const param of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key[param]).toBeUndefined();
      expect(key.kty).toBeTruthy();
      expect(key.alg).toBeTruthy();
    }
    expect((await get(server.url.replace('jwks.json', 'other'))).status).toBe(404);
  });

  it('can omit one key, drop connections, and recover', async () => {
    server.setMode({ omitKid: 'es-1' });
    const partial = (await get(server.url)).json() as { keys: Array<{ kid: string }> };
    expect(partial.keys.map((k) => k.kid)).toEqual(['ed-1', 'rs-1']);
    server.setMode('unavailable');
    await expect(get(server.url)).rejects.toMatchObject({ code: 'CONNECTION_RESET' });
    server.setMode('normal');
    expect((await get(server.url)).status).toBe(200);
    expect(server.requestCount).toBeGreaterThanOrEqual(4);
  });

  it('refuses what it cannot serve with JWKS_SERVER', async () => {
    await expect(startJwksServer({ ...listener, serveJwks: undefined })).rejects.toMatchObject({ code: 'JWKS_SERVER' });
    await expect(startJwksServer({ ...listener, serveJwks: { url: 'http://127.0.0.1:0/jwks.json', tlsCert: leaf.certPem, tlsKey: leaf.keyPem } }))
      .rejects.toMatchObject({ code: 'JWKS_SERVER' });
    await expect(startJwksServer({ ...listener, serveJwks: { url: 'https://127.0.0.1:0/jwks.json' } })).rejects.toMatchObject({ code: 'JWKS_SERVER' });
    const port = Number(new URL(server.url).port);
    await expect(startJwksServer(listener, { port })).rejects.toMatchObject({ code: 'JWKS_SERVER' });
  });

  it('startProfileJwksServers starts one per listener with serveJwks and closes them together', async () => {
    const profile = makeProfile('https://127.0.0.1:1', secrets, {
      webhooks: { jwt: listener, jwtUnreachableJwks: { ...listener, listenerId: 'wh_unreachable' } },
    });
    const started = await startProfileJwksServers(profile);
    expect(started.servers).toHaveLength(1);
    const url = started.servers[0]?.url ?? '';
    expect((await get(url)).status).toBe(200);
    await started.close();
    await expect(get(url)).rejects.toMatchObject({ code: 'TARGET_UNREACHABLE' });
  });
});
