/**
 * The sandbox tenant's RSA signing key, generated once per machine and user and kept in the user's cache
 * folder (`$XDG_CACHE_HOME/access-conformance/`, else `~/.cache/access-conformance/`).
 *
 * Why: a 2048-bit RSA key takes 0.1–0.4 s of a core to generate (Ed25519 and P-256 keys take well under
 * a millisecond), and every embedded `run`, `serve` and fault run makes a tenant, so it was most of the
 * "keys" phase. The key signs the sandbox's webhook JWTs for its own JWT listener and nothing else: it
 * only has to be one the reference and the harness do not share with anyone, not a new one per tenant.
 * The Client Secrets, the HMAC secrets and the other signing keys stay fresh per tenant (the JWKS server's
 * certificate and its CA are kept too: certificate-cache.ts), and the suites' impostor keys are always
 * generated (signing-keys.ts), so they never equal this one.
 *
 * Safe keeping is machine-cache.ts's (0700 folder, 0600 file, no links, this user's only); the file is
 * used only when it holds a usable RSA key of at least 2048 bits, else the tenant gets a fresh key, as
 * before, and the file a fresh one when it can be written. The key reaches reports only as the profile's
 * other secrets do: redacted.
 */
import { checkSigningJwk, generateSigningKey, PRIVATE_JWK_PARAMS } from '../crypto/signing-keys.js';
import type { JWK, SigningJwk } from '../crypto/types.js';
import { machineCachePath, readCachedJson, writeCachedJson } from './machine-cache.js';

const FILE_NAME = 'sandbox-rs256.private.jwk.json';
/** A JWK of a 2048- to 4096-bit RSA key is a few kilobytes; anything larger is not ours. */
const MAX_FILE_BYTES = 16 * 1024;
/** The members kept in the file: the key itself, without the tenant's kid. */
const RSA_MEMBERS = ['kty', 'n', 'e', ...PRIVATE_JWK_PARAMS.filter((name) => name !== 'k' && name !== 'oth')] as const;

/** Where the cached key lives for this environment, or undefined when there is no user cache folder. */
export function keyCachePath(env: NodeJS.ProcessEnv = process.env, home?: () => string): string | undefined {
  return machineCachePath(FILE_NAME, env, home);
}

async function readCached(path: string): Promise<Record<string, string> | undefined> {
  const parsed = await readCachedJson(path, MAX_FILE_BYTES);
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const jwk: Record<string, string> = {};
  for (const name of RSA_MEMBERS) {
    const value = (parsed as Record<string, unknown>)[name];
    if (typeof value !== 'string') return undefined;
    jwk[name] = value;
  }
  // The same test a profile's key gets: it imports, its public half matches, its modulus is 2048+ bits.
  try {
    return checkSigningJwk({ ...jwk, kid: 'cached', alg: 'RS256' }).length === 0 ? jwk : undefined;
  } catch {
    return undefined;
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
export async function machineRsaSigningKey(kid: string, path: string | null = keyCachePath() ?? null): Promise<SigningJwk> {
  const cached = path === null ? undefined : await readCached(path);
  if (cached !== undefined) return { ...cached, kty: 'RSA', kid, alg: 'RS256', use: 'sig' };
  const fresh = await generateSigningKey('RS256', kid);
  if (path !== null) await writeCachedJson(path, keyMembers(fresh)).catch(() => undefined);
  return fresh;
}
