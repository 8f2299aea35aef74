/**
 * The sandbox's JWKS certificate cache (src/tenant/certificate-cache.ts): made once, kept 0600, used again
 * while node:crypto says it is still a pair that serves the names asked for; anything else is made afresh.
 * The kept pair serves a real TLS handshake that trusts only its CA.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { get } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalCa, issueServerCertificate } from '../../src/crypto/certificates.js';
import { certificateCachePath, machineJwksCertificate, unusable } from '../../src/tenant/certificate-cache.js';

const LOOPBACK = { ipAddresses: ['127.0.0.1'], dnsNames: ['localhost'] };
let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-cert-cache-'));
  path = certificateCachePath({ XDG_CACHE_HOME: dir })!;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const posix = process.platform !== 'win32';

describe('the machine JWKS certificate', () => {
  it('is made once, kept for this user only, used again, and serves a handshake that trusts only its CA', async () => {
    expect(path).toBe(join(dir, 'access-conformance', 'sandbox-jwks-tls.json'));
    const first = await machineJwksCertificate(LOOPBACK, path);
    if (posix) {
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'access-conformance')).mode & 0o777).toBe(0o700);
    }
    const second = await machineJwksCertificate(LOOPBACK, path);
    expect(second).toEqual(first);
    const server = createServer({ cert: second.leaf.certPem, key: second.leaf.keyPem }, (_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const body = await new Promise<string>((resolve, reject) => {
        get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, ca: second.ca.certPem, path: '/' }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(text));
        }).on('error', reject);
      });
      expect(body).toBe('ok');
    } finally {
      server.close();
    }
  });

  it('is made afresh for another name, and when the file is loose, a link, or tampered with', async () => {
    const kept = await machineJwksCertificate(LOOPBACK, path);
    // Another name: a fresh pair that names it (kept in place of the other).
    const wider = await machineJwksCertificate({ ipAddresses: ['127.0.0.1', '127.0.0.2'], dnsNames: ['localhost'] }, path);
    expect(wider.leaf.certPem).not.toBe(kept.leaf.certPem);
    expect(unusable(wider, { ipAddresses: ['127.0.0.2'], dnsNames: [] })).toBeUndefined();
    if (posix) {
      chmodSync(path, 0o644);
      expect((await machineJwksCertificate(LOOPBACK, path)).leaf.certPem).not.toBe(wider.leaf.certPem);
      const real = join(dir, 'elsewhere.json');
      writeFileSync(real, readFileSync(path), { mode: 0o600 });
      rmSync(path);
      symlinkSync(real, path);
      expect((await machineJwksCertificate(LOOPBACK, path)).leaf.certPem).not.toBe(JSON.parse(readFileSync(real, 'utf8')).leaf.certPem);
    }
    // A leaf that another CA signed, in the kept CA's company.
    const current = JSON.parse(readFileSync(path, 'utf8'));
    const otherCa = await createLocalCa('someone else', 90);
    const foreign = await issueServerCertificate(otherCa, { ...LOOPBACK, days: 90 });
    writeFileSync(path, JSON.stringify({ ca: current.ca, leaf: foreign }), { mode: 0o600 });
    expect(unusable({ ca: current.ca, leaf: foreign }, LOOPBACK)).toBe('the CA did not sign the certificate');
    expect((await machineJwksCertificate(LOOPBACK, path)).leaf.certPem).not.toBe(foreign.certPem);
  });

  it('says why a pair cannot serve: a key that is not its own, a week from its end, a name it lacks', async () => {
    const pair = await machineJwksCertificate(LOOPBACK, path);
    expect(unusable(pair, LOOPBACK)).toBeUndefined();
    expect(unusable({ ...pair, leaf: { ...pair.leaf, keyPem: pair.ca.keyPem } }, LOOPBACK)).toBe('the certificate key does not match');
    expect(unusable(pair, LOOPBACK, Date.now() + 85 * 24 * 60 * 60 * 1000)).toBe('ends within a week');
    expect(unusable(pair, { ipAddresses: ['10.0.0.1'], dnsNames: [] })).toBe('does not name 10.0.0.1');
    expect(unusable({ ...pair, ca: { ...pair.ca, certPem: 'not a certificate' } }, LOOPBACK)).toMatch(/^unreadable/);
  });

  it('is made afresh every time without a cache folder', async () => {
    const a = await machineJwksCertificate(LOOPBACK, null);
    const b = await machineJwksCertificate(LOOPBACK, null);
    expect(a.ca.certPem).not.toBe(b.ca.certPem);
  });
});
