/**
 * A throw-away local CA and server certificates signed by it, for serving JWKS documents and the reference
 * over HTTPS in tests and `serve`. ECDSA P-256 through WebCrypto; nothing is written to disk here.
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { HarnessError } from '../errors.js';

// @peculiar/x509 looks for a global Crypto; give it Node's explicitly so it never depends on globals.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

export interface PemPair {
  certPem: string;
  keyPem: string;
}

export interface ServerCertificateOptions {
  ipAddresses: string[];
  dnsNames: string[];
  /** Validity in days; default 30. */
  days?: number;
}

const EC_PARAMS = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Random positive 128-bit serial: hex with the top bit cleared so DER keeps it positive. */
function serialNumber(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] as number) & 0x7f;
  return Buffer.from(bytes).toString('hex');
}

function validity(days: number): { notBefore: Date; notAfter: Date } {
  // Back-date by an hour so a client whose clock runs a little behind still accepts the certificate.
  const now = Date.now();
  return { notBefore: new Date(now - 60 * 60 * 1000), notAfter: new Date(now + days * DAY_MS) };
}

async function generateEcKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(EC_PARAMS, true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

/** A self-signed CA (basicConstraints cA, keyCertSign) valid for `days` (default 30). */
export async function createLocalCa(commonName = 'access-conformance local CA', days = 30): Promise<PemPair> {
  const keys = await generateEcKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: [{ CN: [commonName] }],
    ...validity(days),
    signingAlgorithm: SIGNING_ALGORITHM,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await privateKeyPem(keys.privateKey) };
}

/** A leaf for TLS servers, signed by `ca`, with the given IP and DNS subject alternative names. */
export async function issueServerCertificate(ca: PemPair, options: ServerCertificateOptions): Promise<PemPair> {
  if (options.ipAddresses.length + options.dnsNames.length === 0) {
    throw new HarnessError('KEY_INVALID', 'A server certificate needs at least one IP address or DNS name.');
  }
  let caCert: x509.X509Certificate;
  let caKey: CryptoKey;
  try {
    caCert = new x509.X509Certificate(ca.certPem);
    const der = x509.PemConverter.decode(ca.keyPem)[0];
    if (der === undefined) throw new Error('no PEM block');
    caKey = (await webcrypto.subtle.importKey('pkcs8', der, EC_PARAMS, false, ['sign'])) as CryptoKey;
  } catch (error) {
    throw new HarnessError('KEY_INVALID', 'The CA certificate or key is not a PEM ECDSA P-256 pair made by createLocalCa.', {
      cause: error,
    });
  }
  const keys = await generateEcKeys();
  const names: x509.JsonGeneralName[] = [
    ...options.dnsNames.map((value) => ({ type: 'dns' as const, value })),
    ...options.ipAddresses.map((value) => ({ type: 'ip' as const, value })),
  ];
  const commonName = options.dnsNames[0] ?? options.ipAddresses[0] ?? 'localhost';
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: [{ CN: [commonName] }],
    issuer: caCert.subject,
    ...validity(options.days ?? 30),
    signingAlgorithm: SIGNING_ALGORITHM,
    publicKey: keys.publicKey,
    signingKey: caKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth], false),
      new x509.SubjectAlternativeNameExtension(names, false),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await privateKeyPem(keys.privateKey) };
}

/** A key pair an attacker controls with a self-signed certificate for it: what a forged `x5c` carries. */
export interface SelfSignedSigningKey {
  /** The private JWK (ES256, P-256) with `alg` and `kid` (its certificate's SHA-256 thumbprint). */
  privateJwk: Record<string, unknown> & { kty: string; kid: string; alg: 'ES256' };
  /** RFC 7515 §4.1.6 `x5c` value: base64 (not base64url) DER certificates, leaf first. */
  x5c: string[];
  certPem: string;
}

/** A fresh ES256 signing key whose self-signed certificate says it belongs to `commonName`. */
export async function createSelfSignedSigningKey(commonName: string): Promise<SelfSignedSigningKey> {
  const keys = await generateEcKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: [{ CN: [commonName] }],
    ...validity(1),
    signingAlgorithm: SIGNING_ALGORITHM,
    keys,
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
  });
  const jwk = (await webcrypto.subtle.exportKey('jwk', keys.privateKey)) as Record<string, unknown> & { kty: string };
  const thumbprint = Buffer.from(await cert.getThumbprint('SHA-256')).toString('base64url');
  delete jwk.key_ops;
  delete jwk.ext;
  return {
    privateJwk: { ...jwk, kid: thumbprint, alg: 'ES256' },
    x5c: [Buffer.from(cert.rawData).toString('base64')],
    certPem: cert.toString('pem'),
  };
}
