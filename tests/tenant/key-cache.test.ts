/**
 * The sandbox's RS256 key cache (src/tenant/key-cache.ts): made once, kept 0600 in a 0700 folder, used
 * again with the tenant's kid; a file that is not safely kept (loose mode, a link, a broken key) is never
 * used, and the folder follows XDG_CACHE_HOME.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyCachePath, machineRsaSigningKey } from '../../src/tenant/key-cache.js';
import { checkSigningJwk } from '../../src/crypto/signing-keys.js';
import { skipUnless } from '../support/capabilities.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-key-cache-'));
  path = keyCachePath({ XDG_CACHE_HOME: dir })!;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const posix = process.platform !== 'win32';

describe('the machine RSA key', () => {
  it('lives under XDG_CACHE_HOME when it is absolute, else under ~/.cache', () => {
    expect(path).toBe(join(dir, 'access-conformance', 'sandbox-rs256.private.jwk.json'));
    expect(keyCachePath({ XDG_CACHE_HOME: 'relative/cache' }, () => '/home/someone')).toBe('/home/someone/.cache/access-conformance/sandbox-rs256.private.jwk.json');
    expect(keyCachePath({}, () => '')).toBeUndefined();
  });

  it('is generated once, kept for this user only, and used again with each tenant\'s kid', async () => {
    const first = await machineRsaSigningKey('rs256-aaaa', path);
    expect(checkSigningJwk(first)).toEqual([]);
    expect(first.kid).toBe('rs256-aaaa');
    if (posix) {
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    }
    // The file holds the key, not a tenant's kid.
    expect(JSON.parse(readFileSync(path, 'utf8'))).not.toHaveProperty('kid');
    const second = await machineRsaSigningKey('rs256-bbbb', path);
    expect(second).toMatchObject({ kid: 'rs256-bbbb', alg: 'RS256', use: 'sig', kty: 'RSA', n: first.n, d: first.d });
  });

  it('is not used when others may read it, when it is a link, or when it is no usable key', async (ctx) => {
    skipUnless(ctx, 'posix', posix, 'file modes and links as POSIX has them');
    const kept = await machineRsaSigningKey('k', path);
    chmodSync(path, 0o644);
    const afterLooseMode = await machineRsaSigningKey('k', path);
    expect(afterLooseMode.n).not.toBe(kept.n);
    // The fresh key replaced the loose file, kept safely this time.
    expect(statSync(path).mode & 0o777).toBe(0o600);

    const elsewhere = join(dir, 'elsewhere.json');
    writeFileSync(elsewhere, readFileSync(path), { mode: 0o600 });
    rmSync(path);
    symlinkSync(elsewhere, path);
    expect((await machineRsaSigningKey('k', path)).n).not.toBe(afterLooseMode.n);

    rmSync(path, { force: true });
    writeFileSync(path, JSON.stringify({ kty: 'RSA', n: 'AQAB', e: 'AQAB', d: 'AQAB', p: 'AQAB', q: 'AQAB', dp: 'AQAB', dq: 'AQAB', qi: 'AQAB' }), { mode: 0o600 });
    const afterBroken = await machineRsaSigningKey('k', path);
    expect(checkSigningJwk(afterBroken)).toEqual([]);
  });

  it('gives a fresh key when there is no cache folder to keep it in', async () => {
    const a = await machineRsaSigningKey('k', null);
    const b = await machineRsaSigningKey('k', null);
    expect(checkSigningJwk(a)).toEqual([]);
    expect(a.n).not.toBe(b.n);
  });
});
