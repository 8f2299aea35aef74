/**
 * What the attestation tests check with nothing of the project's code: DSSE's pre-authentication encoding
 * (PAE, from the DSSE spec: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body) and node:crypto's verify
 * with the public key; the test name of a report result as the predicate's lists carry it; and the list
 * each result belongs in, read from report.json alone.
 */
import { generateKeyPair, verify, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

export interface SerializedBundle {
  mediaType: string;
  verificationMaterial: { publicKey?: { hint: string }; certificate?: { rawBytes: string }; tlogEntries?: unknown[] };
  dsseEnvelope: { payload: string; payloadType: string; signatures: Array<{ sig: string; keyid: string }> };
}

export function pae(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
}

/** The envelope's one signature, checked over PAE(payloadType, payload) with the public key. */
export function dsseVerifies(bundle: SerializedBundle, publicKey: KeyObject): boolean {
  const { payload, payloadType, signatures } = bundle.dsseEnvelope;
  if (signatures.length !== 1) return false;
  const hash = publicKey.asymmetricKeyType === 'ed25519' ? null : 'sha256';
  return verify(hash, pae(payloadType, Buffer.from(payload, 'base64')), publicKey, Buffer.from(signatures[0]!.sig, 'base64'));
}

export function statementOf(bundle: SerializedBundle): {
  _type: string;
  subject: Array<{ name: string; digest: { sha256: string } }>;
  predicateType: string;
  predicate: Record<string, unknown> & {
    result: string;
    configuration: Array<{ name?: string; digest?: { sha256?: string }; annotations?: Record<string, unknown> }>;
    passedTests: string[];
    warnedTests: string[];
    failedTests: string[];
    accessConformance: {
      report: { digest: { sha256: string } };
      skippedTests: Array<{ name: string }>;
      blockedTests: Array<{ name: string }>;
      erroredTests: string[];
      results: number;
      catalogueVersion: string;
    };
  };
} {
  return JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString('utf8'));
}

/** A fresh key pair (the asynchronous generator: a synchronous one can deadlock Node 20, src/crypto/ed25519.ts). */
export const newKeyPair = promisify(generateKeyPair);

export async function keyPair(kind: 'ed25519' | 'p256'): Promise<{ privatePem: string; publicPem: string; publicKey: KeyObject }> {
  const pair = kind === 'ed25519' ? await newKeyPair('ed25519') : await newKeyPair('ec', { namedCurve: 'P-256' });
  return {
    privatePem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    publicKey: pair.publicKey,
  };
}

interface ReportResult {
  id: string;
  operation?: { method: string; path: string };
  level: string;
  state: string;
}

/** `ID`, or `ID@METHOD path` for one operation's result. */
export function nameOf(result: ReportResult): string {
  return result.operation ? `${result.id}@${result.operation.method.toUpperCase()} ${result.operation.path}` : result.id;
}

/** Which list a result must be in: passed; warned (a SHOULD or INFO failure without --strict); failed (a MUST, a SHOULD with --strict, errored); skipped; blocked. */
export function expectedList(result: ReportResult, strict: boolean): 'passedTests' | 'warnedTests' | 'failedTests' | 'skippedTests' | 'blockedTests' {
  if (result.state === 'passed') return 'passedTests';
  if (result.state === 'errored') return 'failedTests';
  if (result.state === 'skipped') return 'skippedTests';
  if (result.state === 'blocked') return 'blockedTests';
  return result.level === 'MUST' || (strict && result.level === 'SHOULD') ? 'failedTests' : 'warnedTests';
}

/** A copy of the bundle with one byte of its decoded payload or signature flipped. */
export function tampered(bundle: SerializedBundle, what: 'payload' | 'signature'): SerializedBundle {
  const copy = structuredClone(bundle);
  const flip = (base64: string, at: number): string => {
    const bytes = Buffer.from(base64, 'base64');
    bytes[at % bytes.length]! ^= 0x01;
    return bytes.toString('base64');
  };
  if (what === 'payload') copy.dsseEnvelope.payload = flip(copy.dsseEnvelope.payload, 200);
  else copy.dsseEnvelope.signatures[0]!.sig = flip(copy.dsseEnvelope.signatures[0]!.sig, 10);
  return copy;
}
