/**
 * What the attack checks rely on in the client: a key rotated into the served JWKS through the control
 * endpoint (token-guarded, public halves only), the bait server counting every connection (also a TLS
 * attempt on its plain-HTTP port), and token requests whose credentials travel outside the body.
 */
import { request } from 'node:https';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetClient, setServedExtraKeys, startBaitServer, startJwksControl, startJwksServer, type JwksServer } from '../../src/client/index.js';
import { createLocalCa, generateSigningKey, issueServerCertificate } from '../../src/crypto/index.js';
import type { ResolvedJwtListener } from '../../src/profile/types.js';
import { makeProfile, makeSecrets } from './support/fixtures.js';
import { startTenantFixture } from './support/token-fixture.js';

let server: JwksServer;
let ca: string;

beforeAll(async () => {
  const secrets = await makeSecrets();
  const authority = await createLocalCa('attack servers test CA');
  const leaf = await issueServerCertificate(authority, { ipAddresses: ['127.0.0.1'], dnsNames: [] });
  ca = authority.certPem;
  const listener: ResolvedJwtListener = {
    listenerId: 'wh_jwt',
    signingKeys: secrets.jwtKeys,
    serveJwks: { url: 'https://127.0.0.1:0/jwks.json', tlsCert: leaf.certPem, tlsKey: leaf.keyPem },
  };
  server = await startJwksServer(listener);
});

afterAll(async () => {
  await server.close();
});

async function servedKids(): Promise<Array<Record<string, unknown>>> {
  return new Promise((resolve, reject) => {
    request(server.url, { ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { keys: Array<Record<string, unknown>> }).keys));
    }).on('error', reject).end();
  });
}

describe('JWKS control', () => {
  it('adds a key to the served JWKS (public half only), replaces the set, and refuses a wrong token', async () => {
    const control = await startJwksControl(server);
    try {
      const rotated = await generateSigningKey('EdDSA', 'rotated-1');
      await setServedExtraKeys(control.control, [rotated]);
      const keys = await servedKids();
      const added = keys.find((key) => key.kid === 'rotated-1');
      expect(added).toMatchObject({ kty: 'OKP', x: rotated.x });
      expect(added?.d).toBeUndefined();
      expect(keys.length).toBe(4);
      await setServedExtraKeys(control.control, []);
      expect((await servedKids()).map((key) => key.kid)).not.toContain('rotated-1');
      await expect(setServedExtraKeys({ ...control.control, token: 'wrong' }, [rotated])).rejects.toMatchObject({ code: 'JWKS_SERVER' });
      const res = await fetch(`${control.control.url}/extra-keys`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${control.control.token}` },
        body: '{"keys":"nope"}',
      });
      expect(res.status).toBe(400);
    } finally {
      await control.close();
    }
  });
});

describe('bait server', () => {
  it('serves its documents, 404s others, and counts every connection, TLS attempts included', async () => {
    const bait = await startBaitServer({ '/jwks.json': { contentType: 'application/json', body: '{"keys":[]}' } });
    try {
      expect(bait.connections).toBe(0);
      const res = await fetch(bait.url('/jwks.json'));
      expect(await res.json()).toEqual({ keys: [] });
      expect((await fetch(bait.url('/other'))).status).toBe(404);
      const httpsUrl = new URL(bait.url('/jwks.json', 'https'));
      expect(httpsUrl.protocol).toBe('https:');
      const before = bait.connections;
      await new Promise<void>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: Number(httpsUrl.port), rejectUnauthorized: false });
        socket.on('error', () => resolve());
        socket.on('close', () => resolve());
      });
      expect(bait.connections).toBeGreaterThan(before);
    } finally {
      await bait.close();
    }
  });
});

describe('token requests with credentials outside the body', () => {
  it('basic puts client_id:client_secret in Authorization (redacted), query puts them in the URL; the body keeps grant_type', async () => {
    const secrets = await makeSecrets();
    const tenant = await startTenantFixture(secrets.hooksToken);
    const client = createTargetClient(makeProfile(tenant.url, secrets), { timeoutMs: 2000 });
    try {
      await client.requestToken({ method: 'secret', credentialsIn: 'basic' });
      expect(tenant.tokenForms.at(-1)).toEqual({ grant_type: 'client_credentials' });
      const basic = client.recorder.all().at(-1)!.request;
      expect(basic.headers.authorization).toMatch(/^Basic /);
      expect(basic.headers.authorization).not.toContain(Buffer.from(secrets.clientSecret).toString('base64').slice(0, 20));
      await client.requestToken({ method: 'assertion', credentialsIn: 'query' });
      expect(tenant.tokenForms.at(-1)).toEqual({ grant_type: 'client_credentials' });
      const query = new URL(client.recorder.all().at(-1)!.request.url).searchParams;
      expect(query.get('client_id')).toBe('brave-otter-1@tenant.test/conformance');
      expect(query.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      expect(query.get('client_assertion')).not.toMatch(/^ey/);
    } finally {
      await client.close();
      await tenant.close();
    }
  });
});
