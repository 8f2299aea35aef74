/**
 * The sandbox's JWKS server certificate and the local CA that signs it, made once per machine and user and
 * kept in the cache folder (machine-cache.ts), as the RS256 key is (key-cache.ts).
 *
 * Why: making them loads @peculiar/x509 and its ASN.1 schemas (some 180 modules, 85 ms on this machine)
 * and signs two certificates, on the main thread of every embedded `run`, `serve` and fault run; a check
 * of one webhook took a tenth of a second longer for it. The pair only has to be this machine's: the CA is
 * trusted by nobody but the sandbox's own JWKS fetcher, which is handed its certificate (never a system
 * trust store), and it signs nothing but this one loopback certificate. A certificate given its own CA
 * (`serve --tls`, a kept state dir) is still issued by it, fresh.
 *
 * A kept pair is used only when node:crypto says it still is one: the CA is a CA and signed the leaf, each
 * private key matches its certificate, the leaf names every address asked for, and both stay valid for at
 * least a week more. Anything else means a fresh pair, kept again.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { PemPair } from '../crypto/certificates.js';
import { createLocalCa, issueServerCertificate } from '../crypto/certificates-lazy.js';
import { machineCachePath, readCachedJson, writeCachedJson } from './machine-cache.js';

const FILE_NAME = 'sandbox-jwks-tls.json';
/** Two certificates and two P-256 keys in PEM are under 3 KB. */
const MAX_FILE_BYTES = 16 * 1024;
/** A kept pair is made again when either certificate ends sooner than this. */
const MIN_REMAINING_MS = 7 * 24 * 60 * 60 * 1000;
/** What a fresh pair is valid for. */
const VALID_DAYS = 90;

export interface JwksCertificate {
  ca: PemPair;
  leaf: PemPair;
}

export interface CertificateNames {
  ipAddresses: string[];
  dnsNames: string[];
}

export function certificateCachePath(env: NodeJS.ProcessEnv = process.env, home?: () => string): string | undefined {
  return machineCachePath(FILE_NAME, env, home);
}

function pemPair(value: unknown): PemPair | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { certPem, keyPem } = value as Record<string, unknown>;
  return typeof certPem === 'string' && typeof keyPem === 'string' ? { certPem, keyPem } : undefined;
}

/** Why a kept pair cannot serve `names` now, or undefined when it can. */
export function unusable(pair: JwksCertificate, names: CertificateNames, now = Date.now()): string | undefined {
  try {
    const ca = new X509Certificate(pair.ca.certPem);
    const leaf = new X509Certificate(pair.leaf.certPem);
    if (!ca.ca) return 'the CA certificate is no CA';
    if (!leaf.verify(ca.publicKey) || leaf.checkIssued(ca) === false) return 'the CA did not sign the certificate';
    if (!ca.checkPrivateKey(createPrivateKey(pair.ca.keyPem))) return 'the CA key does not match';
    if (!leaf.checkPrivateKey(createPrivateKey(pair.leaf.keyPem))) return 'the certificate key does not match';
    for (const certificate of [ca, leaf]) {
      if (Date.parse(certificate.validFrom) > now) return 'not valid yet';
      if (Date.parse(certificate.validTo) - now < MIN_REMAINING_MS) return 'ends within a week';
    }
    for (const ip of names.ipAddresses) if (leaf.checkIP(ip) === undefined) return `does not name ${ip}`;
    for (const dns of names.dnsNames) if (leaf.checkHost(dns, { wildcards: false }) === undefined) return `does not name ${dns}`;
    return undefined;
  } catch (error) {
    return `unreadable (${error instanceof Error ? error.message : String(error)})`;
  }
}

async function readCached(path: string, names: CertificateNames): Promise<JwksCertificate | undefined> {
  const parsed = await readCachedJson(path, MAX_FILE_BYTES);
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const ca = pemPair((parsed as Record<string, unknown>).ca);
  const leaf = pemPair((parsed as Record<string, unknown>).leaf);
  if (ca === undefined || leaf === undefined) return undefined;
  return unusable({ ca, leaf }, names) === undefined ? { ca, leaf } : undefined;
}

/** A fresh pair: the only path of a plain sandbox that loads the certificate library. */
async function freshPair(names: CertificateNames): Promise<JwksCertificate> {
  const ca = await createLocalCa('access-conformance sandbox CA', VALID_DAYS);
  return { ca, leaf: await issueServerCertificate(ca, { ...names, days: VALID_DAYS }) };
}

/**
 * The JWKS server's certificate for `names` and its CA: the machine's kept pair when it still serves, else
 * a fresh one (kept for the next tenant when the cache folder can be written). `path` null: no cache folder.
 */
export async function machineJwksCertificate(names: CertificateNames, path: string | null = certificateCachePath() ?? null): Promise<JwksCertificate> {
  const cached = path === null ? undefined : await readCached(path, names);
  if (cached !== undefined) return cached;
  const fresh = await freshPair(names);
  if (path !== null) await writeCachedJson(path, fresh).catch(() => undefined);
  return fresh;
}
