/**
 * The sandbox tenant's RSA signing key, generated once per machine and user and kept in the user's cache
 * folder (`$XDG_CACHE_HOME/access-conformance/`, else `~/.cache/access-conformance/`).
 *
 * Why: a 2048-bit RSA key takes 0.1–0.4 s of a core to generate (Ed25519 and P-256 keys take well under
 * a millisecond), and every embedded `run`, `serve` and fault run makes a tenant, so it was most of the
 * "keys" phase. The key signs the sandbox's webhook JWTs for its own JWT listener and nothing else: it
 * only has to be one the reference and the harness do not share with anyone, not a new one per tenant.
 * The Client Secrets, the HMAC secrets, the other signing keys and the local CA stay fresh per tenant, and
 * the suites' impostor keys are always generated (signing-keys.ts), so they never equal this one.
 *
 * Safe keeping: the folder is made 0700 and the file 0600, written whole under a temporary name and
 * renamed; a file is used only when it is a regular file (not a link), owned by this user, readable by
 * nobody else, and holds a usable RSA key of at least 2048 bits. Anything else (another user's file, a
 * loose mode, a broken key, a read-only or absent home) means a fresh key for this tenant, as before, and
 * a fresh file when one can be written. The key reaches reports only as the profile's other secrets do:
 * redacted.
 */
import { constants, type Stats } from 'node:fs';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { checkSigningJwk, generateSigningKey, PRIVATE_JWK_PARAMS } from '../crypto/signing-keys.js';
import type { JWK, SigningJwk } from '../crypto/types.js';

const FILE_NAME = 'sandbox-rs256.private.jwk.json';
/** A JWK of a 2048- to 4096-bit RSA key is a few kilobytes; anything larger is not ours. */
const MAX_FILE_BYTES = 16 * 1024;
/** The members kept in the file: the key itself, without the tenant's kid. */
const RSA_MEMBERS = ['kty', 'n', 'e', ...PRIVATE_JWK_PARAMS.filter((name) => name !== 'k' && name !== 'oth')] as const;

/** Where the cached key lives for this environment, or undefined when there is no user cache folder. */
export function keyCachePath(env: NodeJS.ProcessEnv = process.env, home: () => string = homedir): string | undefined {
  // The XDG base directory rule: a relative XDG_CACHE_HOME is invalid and ignored.
  const xdg = env.XDG_CACHE_HOME;
  let base: string | undefined = xdg !== undefined && isAbsolute(xdg) ? xdg : undefined;
  if (base === undefined) {
    try {
      const dir = home();
      base = dir !== '' && isAbsolute(dir) ? join(dir, '.cache') : undefined;
    } catch {
      base = undefined;
    }
  }
  return base === undefined ? undefined : join(base, 'access-conformance', FILE_NAME);
}

/** A file only this user may read, and a regular one. */
function safelyKept(stats: Stats): boolean {
  const ownUser = typeof process.getuid !== 'function' || stats.uid === process.getuid();
  return stats.isFile() && ownUser && (stats.mode & 0o077) === 0 && stats.size <= MAX_FILE_BYTES;
}

async function readCached(path: string): Promise<Record<string, string> | undefined> {
  let handle;
  try {
    // O_NOFOLLOW: a link put in the key's place is not followed (where the platform has the flag).
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    if (!safelyKept(await handle.stat())) return undefined;
    const parsed = JSON.parse(await handle.readFile('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const jwk: Record<string, string> = {};
    for (const name of RSA_MEMBERS) {
      const value = (parsed as Record<string, unknown>)[name];
      if (typeof value !== 'string') return undefined;
      jwk[name] = value;
    }
    // The same test a profile's key gets: it imports, its public half matches, its modulus is 2048+ bits.
    return checkSigningJwk({ ...jwk, kid: 'cached', alg: 'RS256' }).length === 0 ? jwk : undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

async function writeCached(path: string, dir: string, jwk: Record<string, string>): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  try {
    await writeFile(temporary, `${JSON.stringify(jwk)}\n`, { mode: 0o600, flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The members of a private RSA JWK the cache keeps. */
function keyMembers(jwk: JWK | SigningJwk): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of RSA_MEMBERS) {
    const value = (jwk as Record<string, unknown>)[name];
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/**
 * The tenant's RS256 signing key with `kid`: the machine's cached key when a safe one is there, else a
 * fresh one (then cached for the next tenant, when the cache folder can be written).
 */
export async function machineRsaSigningKey(kid: string, path: string | undefined = keyCachePath()): Promise<SigningJwk> {
  const cached = path === undefined ? undefined : await readCached(path);
  if (cached !== undefined) return { ...cached, kty: 'RSA', kid, alg: 'RS256', use: 'sig' };
  const fresh = await generateSigningKey('RS256', kid);
  if (path !== undefined) await writeCached(path, join(path, '..'), keyMembers(fresh)).catch(() => undefined);
  return fresh;
}
