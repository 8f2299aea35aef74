/**
 * A JWT listener of the profile: its private signing keys (inline, or a JSON array / JWKS document in a file
 * or a variable) and the JWKS server settings, read and then checked key by key.
 */
import { checkSigningJwk } from '../crypto/index.js';
import type { JwtListenerDoc } from './document.js';
import { cidrsOf } from './cidr.js';
import type { ProfileProblem } from './schema.js';
import { jsonErrorLocation, type SourceReader } from './sources.js';
import type { ResolvedJwtListener, SigningJwk } from './types.js';

/** Where a listener's keys came from (file or variable), for messages only. */
const keyOrigins = new WeakMap<ResolvedJwtListener, string>();

export async function readJwtListener(
  doc: JwtListenerDoc,
  field: string,
  reader: SourceReader,
  problems: ProfileProblem[],
): Promise<ResolvedJwtListener> {
  let keys: unknown = doc.signingKeys;
  const keysField = `${field}.signingKeys`;
  let origin: string | undefined;
  if (!Array.isArray(doc.signingKeys)) {
    const ref = doc.signingKeys as { file?: string; env?: string };
    const text = ref.file !== undefined ? await reader.fromFile(ref.file, keysField) : reader.fromEnv(ref.env as string, keysField);
    origin = ref.file !== undefined ? `file ${reader.resolvePath(ref.file)}` : `variable ${ref.env as string}`;
    keys = undefined;
    if (text !== undefined) {
      try {
        keys = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
      } catch (error) {
        const at = jsonErrorLocation(text, error);
        problems.push({ path: keysField, message: `${origin} is not valid JSON${at ? ` (at ${at})` : ''}` });
      }
    }
    // A JWKS-shaped document ({"keys": [...]}) is accepted too: it is how many tools export key sets.
    if (typeof keys === 'object' && keys !== null && !Array.isArray(keys) && Array.isArray((keys as { keys?: unknown }).keys)) {
      keys = (keys as { keys: unknown[] }).keys;
    }
    if (keys !== undefined && (!Array.isArray(keys) || keys.length === 0)) {
      problems.push({ path: keysField, message: `${origin} must hold a non-empty JSON array of private JWKs (or {"keys": [...]})` });
      keys = undefined;
    }
  }
  const listener: ResolvedJwtListener = {
    listenerId: doc.listenerId,
    signingKeys: (Array.isArray(keys) ? keys : []) as SigningJwk[],
    ...cidrsOf(doc),
  };
  // Remember where keys came from for messages when its keys are checked (not part of the resolved shape).
  if (origin !== undefined) keyOrigins.set(listener, origin);
  if (doc.serveJwks) {
    const { url, tlsCertFile, tlsKeyFile } = doc.serveJwks;
    listener.serveJwks = { url };
    if (tlsCertFile !== undefined) {
      const cert = await reader.fromFile(tlsCertFile, `${field}.serveJwks.tlsCertFile`);
      if (cert !== undefined) listener.serveJwks.tlsCert = cert;
    }
    if (tlsKeyFile !== undefined) {
      const key = await reader.fromFile(tlsKeyFile, `${field}.serveJwks.tlsKeyFile`);
      if (key !== undefined) listener.serveJwks.tlsKey = key;
    }
  }
  return listener;
}

export function checkJwtListener(listener: ResolvedJwtListener, field: string, problems: ProfileProblem[]): void {
  const origin = keyOrigins.get(listener);
  const from = origin === undefined ? '' : ` (in ${origin})`;
  const kids = new Set<string>();
  listener.signingKeys.forEach((key, index) => {
    const at = `${field}.signingKeys[${index}]`;
    for (const problem of checkSigningJwk(key)) {
      problems.push({ path: problem.path === '' ? at : `${at}.${problem.path}`, message: `${problem.message}${from}` });
    }
    if (typeof key.kid === 'string') {
      if (kids.has(key.kid)) problems.push({ path: `${at}.kid`, message: `repeats another key's kid; each kid must be unique${from}` });
      kids.add(key.kid);
    }
  });
  const serve = listener.serveJwks;
  if (serve) {
    if (serve.tlsCert !== undefined && !serve.tlsCert.includes('-----BEGIN CERTIFICATE-----')) {
      problems.push({ path: `${field}.serveJwks.tlsCertFile`, message: 'file holds no PEM certificate (-----BEGIN CERTIFICATE-----)' });
    }
    if (serve.tlsKey !== undefined && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(serve.tlsKey)) {
      problems.push({ path: `${field}.serveJwks.tlsKeyFile`, message: 'file holds no PEM private key (-----BEGIN PRIVATE KEY-----)' });
    }
  }
}
