/**
 * The keys of keyed attestation: the signing key of `run --attest --signing-key` (a PEM file, or
 * `{"env": NAME}` with the PEM in that variable, as the profile takes its secrets) and the public key of
 * `verify --key`. ECDSA P-256 (signed with SHA-256, DER signatures, as Sigstore and cosign write them) or
 * Ed25519; node:crypto reads and signs, so no key ever leaves this process or reaches a message.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { FileRefused, readBoundedFile } from '../profile/index.js';
import { HarnessError } from '../errors.js';

/** A PEM key file is a few hundred bytes; anything this large is not one. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

function keyError(message: string, field: string, hint = 'give a PEM file with an ECDSA P-256 or Ed25519 key, e.g. `openssl genpkey -algorithm ed25519 -out signing.pem`'): HarnessError {
  return new HarnessError('KEY_INVALID', message, { field, hint });
}

/** The text of a key argument: a file's contents, or `{"env": NAME}`'s variable. */
async function keyText(value: string, field: string, env: NodeJS.ProcessEnv): Promise<string> {
  const trimmed = value.trim();
  if (trimmed.startsWith('{')) {
    let ref: unknown;
    try {
      ref = JSON.parse(trimmed);
    } catch {
      throw keyError(`${field} starts with "{" but is not JSON; write {"env": "VARIABLE_NAME"}`, field);
    }
    const name = (ref as { env?: unknown } | null)?.env;
    if (typeof name !== 'string' || name === '' || Object.keys(ref as object).length !== 1) throw keyError(`${field} takes a file or {"env": "VARIABLE_NAME"}`, field);
    const text = env[name];
    if (text === undefined || text.trim() === '') throw keyError(`${field}: the variable ${name} is not set or empty`, field, `export ${name} with the PEM key as its value`);
    return text;
  }
  // A key pasted inline (`--signing-key "$KEY"`, a common CI slip) is never echoed back: the message would
  // print the private key into the job's log.
  if (trimmed.includes('-----BEGIN') || /[\r\n]/.test(trimmed) || trimmed.length > MAX_PATH_SHOWN) {
    throw keyError(`${field} is not a file path (a PEM key given inline?)`, field, 'give a file, or {"env": "VARIABLE_NAME"} with the key in that variable');
  }
  try {
    // Bounded like every file the harness reads: a FIFO or a hung mount cannot hold the run.
    return await readBoundedFile(trimmed, { maxBytes: MAX_KEY_FILE_BYTES, what: 'a PEM key' });
  } catch (error) {
    const why = error instanceof FileRefused ? error.message : 'there is no such readable file';
    throw keyError(`${field}: ${trimmed} cannot be used: ${why}`, field);
  }
}

/** A path longer than this is not one a person typed: the value is not shown. */
const MAX_PATH_SHOWN = 512;

/** Which of the two kinds a key is, or why it is neither. */
function kindOf(key: KeyObject): 'ecdsa-p256' | 'ed25519' | string {
  if (key.asymmetricKeyType === 'ed25519') return 'ed25519';
  if (key.asymmetricKeyType === 'ec') return key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? 'ecdsa-p256' : `an EC key on ${key.asymmetricKeyDetails?.namedCurve ?? 'an unknown curve'}`;
  return `a${key.asymmetricKeyType === 'rsa' ? 'n RSA' : ` ${key.asymmetricKeyType ?? 'unknown'}`} key`;
}

export async function loadSigningKey(value: string, env: NodeJS.ProcessEnv = process.env, field = '--signing-key'): Promise<KeyObject> {
  const text = await keyText(value, field, env);
  let key: KeyObject;
  try {
    key = createPrivateKey(text);
  } catch (error) {
    const why = /passphrase/i.test((error as Error).message) ? 'it is encrypted; give an unencrypted key (keep it in a secret variable: {"env": NAME})' : 'it is not a PEM private key';
    throw keyError(`${field}: ${why}`, field);
  }
  const kind = kindOf(key);
  if (kind !== 'ecdsa-p256' && kind !== 'ed25519') throw keyError(`${field}: the key is ${kind}; attestations are signed with ECDSA P-256 or Ed25519`, field);
  return key;
}

export async function loadPublicKey(value: string, env: NodeJS.ProcessEnv = process.env, field = '--key'): Promise<KeyObject> {
  const text = await keyText(value, field, env);
  let key: KeyObject;
  try {
    key = createPublicKey(text);
  } catch {
    throw keyError(`${field}: it is not a PEM public key`, field, 'give the public half of the signing key: `openssl pkey -in signing.pem -pubout -out signing.pub.pem`');
  }
  const kind = kindOf(key);
  if (kind !== 'ecdsa-p256' && kind !== 'ed25519') throw keyError(`${field}: the key is ${kind}; attestations are signed with ECDSA P-256 or Ed25519`, field);
  return key;
}

/** The public key as SPKI PEM (what a Sigstore signer hands over with its signature). */
export function publicKeyPem(key: KeyObject): string {
  return createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();
}

/** The key's ID in the envelope (`keyid`) and the bundle's key hint: SHA-256 of its SPKI DER, hex. */
export function keyHint(key: KeyObject): string {
  return createHash('sha256').update(createPublicKey(key).export({ type: 'spki', format: 'der' })).digest('hex');
}

/** The hash a signature over data uses with this key: none for Ed25519 (it hashes itself), SHA-256 for P-256. */
export function signatureHash(key: KeyObject): 'sha256' | null {
  return key.asymmetricKeyType === 'ed25519' ? null : 'sha256';
}
