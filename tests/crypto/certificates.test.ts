import { once } from 'node:events';
import { request, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalCa, issueServerCertificate, type PemPair } from '../../src/crypto/index.js';

let ca: PemPair;
let leaf: PemPair;
let server: ReturnType<typeof createServer>;
let port: number;

beforeAll(async () => {
  ca = await createLocalCa('test CA');
  leaf = await issueServerCertificate(ca, { ipAddresses: ['127.0.0.1'], dnsNames: ['localhost'] });
  server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (_req, res) => res.end('ok'));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.close();
  await once(server, 'close');
});

function get(options: { ca?: string; servername?: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', ca: options.ca, servername: options.servername, timeout: 5000 }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve(text));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

describe('local CA', () => {
  it('issues a CA and a leaf with the expected extensions', () => {
    const caCert = new X509Certificate(ca.certPem);
    const leafCert = new X509Certificate(leaf.certPem);
    expect(caCert.ca).toBe(true);
    expect(leafCert.ca).toBe(false);
    expect(leafCert.checkIssued(caCert)).toBe(true);
    expect(leafCert.verify(caCert.publicKey)).toBe(true);
    expect(leafCert.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(leafCert.subjectAltName).toContain('DNS:localhost');
    expect(leafCert.checkIP('127.0.0.1')).toBe('127.0.0.1');
  });

  it('a node:https client trusting only the CA accepts the server at 127.0.0.1', async () => {
    expect(await get({ ca: ca.certPem })).toBe('ok');
  });

  it('and refuses it without the CA, or with another CA', async () => {
    await expect(get({})).rejects.toThrow();
    const other = await createLocalCa('other CA');
    await expect(get({ ca: other.certPem })).rejects.toThrow();
  });
});
