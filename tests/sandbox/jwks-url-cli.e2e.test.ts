/**
 * `serve --jwks-url` and `--jwks-ca` as a developer types them (issue 45): plain http on a non-loopback
 * address, another scheme, or a CA file that is not one, refused at start with exit 2 naming the flag; a
 * JWKS on 127.0.0.1 over http named at start is the one the `jwt` listener uses (the developer's key gets
 * 200), and the cheat-sheet says where it fetches from and the loopback rule.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newEd25519Jwk } from '../../src/crypto/ed25519.js';
import { call, nowSeconds, publicJwk, sha256Url, signJwt, type Jwk } from '../reference/support/wire.js';
import { serveRefused, startServeChild } from './support/serve-child.js';

const scratch = mkdtempSync(join(tmpdir(), 'ac-jwks-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('serve --jwks-url, refused at start', () => {
  it.each([
    ['http://192.0.2.10:9000/jwks.json', /--jwks-url: plain http:\/\/ is accepted only on a loopback address/],
    ['http://keys.example.com/jwks.json', /--jwks-url: plain http:\/\/ is accepted only on a loopback address/],
    ['file:///etc/passwd', /--jwks-url: it is file, not https/],
  ])('%s: exit 2, the flag named', async (url, message) => {
    const result = await serveRefused(['--jwks-url', url]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).not.toMatch(/^\{/m);
  });

  it('--jwks-ca naming a file that is not PEM, or no file, or without --jwks-url and --hooks: exit 2', async () => {
    const notPem = join(scratch, 'not-a-ca.txt');
    writeFileSync(notPem, 'hello');
    const wrong = await serveRefused(['--jwks-url', 'https://127.0.0.1:1/jwks.json', '--jwks-ca', notPem]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--jwks-ca: .* holds no PEM certificate/);
    const missing = await serveRefused(['--jwks-url', 'https://127.0.0.1:1/jwks.json', '--jwks-ca', join(scratch, 'absent.pem')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--jwks-ca: cannot read .*ENOENT/);
    const alone = await serveRefused(['--jwks-ca', notPem]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--jwks-ca trusts a private CA for the JWKS of --jwks-url/);
  });
});

describe('serve --jwks-url http://127.0.0.1:…', () => {
  let server: Server | undefined;
  afterAll(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  it('the jwt listener fetches the developer\'s JWKS: their key gets 200; the cheat-sheet says so', async () => {
    const key: Jwk = { ...newEd25519Jwk(), kid: 'mine', alg: 'EdDSA' };
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk(key)] })));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    const serve = await startServeChild(['--jwks-url', jwksUrl]);
    try {
      expect(serve.stdout()).toContain(`JWKS fetched from your ${jwksUrl} (--jwks-url; https, or plain http on a loopback address only)`);
      const p = serve.profile;
      const url = `${p.baseUrl}/api/v1/webhooks/incoming/${p.webhooks.jwt.listenerId}`;
      const body = '{"from":"cli"}';
      const eventId = randomUUID();
      const t = nowSeconds();
      const jwt = signJwt({ alg: 'EdDSA', kid: 'mine', typ: 'JWT' }, { sub: p.baseUrl, aud: url, exp: t + 300, jti: eventId, htm: 'POST', htb_s256: sha256Url(body) }, key);
      const answer = await call(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'webhook-timestamp': String(t), 'webhook-event-id': eventId, authorization: `Bearer ${jwt}` } });
      expect(answer.status, answer.text).toBe(200);
    } finally {
      await serve.close();
    }
  }, 90_000);
});
