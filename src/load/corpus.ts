/**
 * The webhook-JWT corpus: requests signed by Node ahead of time for load/webhook-jwt.js (k6 cannot sign
 * EdDSA, and older k6 cannot sign RS256/ES256) and for `load --scenario webhook-jwt --corpus`. The format is
 * the one load/lib/corpus.js reads; a test keeps the two in step.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { listenerPath } from '../client/webhooks.js';
import { HarnessError } from '../errors.js';
import type { JwtAlg, ResolvedJwtListener, ResolvedProfile, SigningJwk } from '../profile/types.js';
import { loadBodies } from './bodies.js';
import { startSigner } from './signer.js';
import { MAX_WEBHOOK_JWT_EXP_SECONDS } from './constants.js';

export { MAX_WEBHOOK_JWT_EXP_SECONDS };

export const CORPUS_FORMAT = 'access-conformance/webhook-jwt-corpus';
export const CORPUS_VERSION = 1;
/** Seconds past the run kept in hand: k6's default gracefulStop (30 s) and clock skew. */
export const CORPUS_MARGIN_SECONDS = 35;

export interface CorpusEntry {
  eventId: string;
  /** Index into `bodies`. */
  body: number;
  jwt: string;
}

export interface Corpus {
  format: typeof CORPUS_FORMAT;
  version: typeof CORPUS_VERSION;
  scenario: 'webhook-jwt';
  alg: JwtAlg;
  kid: string;
  /** Where to POST: the profile's baseUrl + listener path. */
  url: string;
  listenerId: string;
  /** Unix seconds. */
  createdAt: number;
  /** Unix seconds: the earliest `exp` of the corpus. */
  notAfter: number;
  bodyBytes: number;
  count: number;
  bodies: string[];
  requests: CorpusEntry[];
}

export interface PrepareOptions {
  profile: ResolvedProfile;
  alg?: JwtAlg;
  count: number;
  bodyBytes: number;
  /** Seconds until the JWTs expire; at most 600. */
  expIn?: number;
  seed: string;
  /** Called every few thousand signatures. */
  onProgress?: (signed: number) => void;
}

/** The JWT listener and its signing key for `alg` (default: its first key), or a LOAD_CONFIG error. */
export function jwtSigningKey(profile: ResolvedProfile, alg: JwtAlg | undefined): { listener: ResolvedJwtListener; key: SigningJwk; alg: JwtAlg } {
  const listener = profile.webhooks.jwt;
  if (!listener) throw new HarnessError('LOAD_CONFIG', 'the profile has no webhooks.jwt listener to sign for', { field: '--profile' });
  const wanted = alg ?? listener.signingKeys[0].alg;
  const key = listener.signingKeys.find((k) => k.alg === wanted);
  if (!key) {
    throw new HarnessError('LOAD_CONFIG', `webhooks.jwt has no ${wanted} signing key`, {
      field: '--alg',
      hint: `The listener has: ${listener.signingKeys.map((k) => k.alg).join(', ')}.`,
    });
  }
  return { listener, key, alg: wanted };
}

export async function prepareCorpus(options: PrepareOptions): Promise<Corpus> {
  const { listener, key, alg } = jwtSigningKey(options.profile, options.alg);
  const expIn = options.expIn ?? MAX_WEBHOOK_JWT_EXP_SECONDS;
  if (!Number.isInteger(expIn) || expIn < 60 || expIn > MAX_WEBHOOK_JWT_EXP_SECONDS) {
    throw new HarnessError('LOAD_CONFIG', `--exp-in must be between 60 and ${MAX_WEBHOOK_JWT_EXP_SECONDS} seconds, got ${expIn}`, {
      field: '--exp-in',
      hint: 'service.md §5.4: a webhook JWT expires within 10 minutes.',
    });
  }
  const bodies = loadBodies(options.seed, options.bodyBytes, options.profile).map((b) => b.toString('utf8'));
  const path = listenerPath(listener.listenerId);
  const signer = startSigner({
    kind: 'webhook-jwt',
    key,
    baseUrl: options.profile.baseUrl,
    webhookUrl: `${options.profile.webhookBaseUrl}${path}`,
    bodies,
    expIn,
  });
  const createdAt = Math.floor(Date.now() / 1000);
  const requests: CorpusEntry[] = [];
  let notAfter = Number.POSITIVE_INFINITY;
  try {
    while (requests.length < options.count) {
      const items = await signer.sign(Math.min(1000, options.count - requests.length));
      for (const item of items) {
        requests.push({ eventId: item.eventId ?? '', body: item.body ?? 0, jwt: item.token });
        notAfter = Math.min(notAfter, item.exp);
      }
      options.onProgress?.(requests.length);
    }
  } finally {
    await signer.close();
  }
  return {
    format: CORPUS_FORMAT,
    version: CORPUS_VERSION,
    scenario: 'webhook-jwt',
    alg,
    kid: key.kid,
    url: `${options.profile.baseUrl}${path}`,
    listenerId: listener.listenerId,
    createdAt,
    notAfter: Number.isFinite(notAfter) ? notAfter : createdAt,
    bodyBytes: options.bodyBytes,
    count: requests.length,
    bodies,
    requests,
  };
}

export async function writeCorpus(path: string, corpus: Corpus): Promise<void> {
  // `--out reports` (the default) is the corpus's folder: created like the report folders are.
  await mkdir(dirname(path), { recursive: true });
  // Compact JSON: a corpus of tens of thousands of JWTs is large enough already.
  await writeFile(path, JSON.stringify(corpus), { mode: 0o600 });
}

export async function readCorpus(path: string): Promise<Corpus> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new HarnessError('CORPUS_INVALID', `cannot read the corpus ${path}`, { field: '--corpus', cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HarnessError('CORPUS_INVALID', `the corpus ${path} is not JSON`, { field: '--corpus', cause: error });
  }
  return assertCorpus(value, path);
}

function invalid(path: string, why: string): HarnessError {
  return new HarnessError('CORPUS_INVALID', `the corpus ${path} ${why}`, {
    field: '--corpus',
    hint: 'Make a new one with `access-conformance load prepare --scenario webhook-jwt --count N --out corpus.json`.',
  });
}

export function assertCorpus(value: unknown, path = '(corpus)'): Corpus {
  const c = value as Partial<Corpus> | null;
  if (!c || typeof c !== 'object' || c.format !== CORPUS_FORMAT || c.version !== CORPUS_VERSION) {
    throw invalid(path, `is not a ${CORPUS_FORMAT} v${CORPUS_VERSION} file`);
  }
  if (typeof c.url !== 'string' || !/^https?:\/\//.test(c.url)) throw invalid(path, 'has no http(s) url');
  if (typeof c.createdAt !== 'number' || typeof c.notAfter !== 'number') throw invalid(path, 'lacks createdAt/notAfter');
  if (!Array.isArray(c.bodies) || !Array.isArray(c.requests) || c.requests.length !== c.count) throw invalid(path, 'has inconsistent requests/count');
  for (const entry of c.requests) {
    if (typeof entry?.eventId !== 'string' || typeof entry.jwt !== 'string' || typeof c.bodies[entry.body] !== 'string') {
      throw invalid(path, 'holds a malformed request');
    }
  }
  return c as Corpus;
}

export function describeWindow(corpus: Pick<Corpus, 'createdAt' | 'notAfter'>, now: number): string {
  const left = Math.floor(corpus.notAfter - now);
  const iso = (s: number): string => new Date(s * 1000).toISOString();
  return `signed ${iso(corpus.createdAt)}, valid until ${iso(corpus.notAfter)} (${left > 0 ? `${left} s left` : `expired ${-left} s ago`})`;
}

/** Why a corpus cannot carry a run, or undefined when it can. Mirrors load/lib/corpus.js checkCorpus. */
export function corpusProblem(corpus: Pick<Corpus, 'createdAt' | 'notAfter' | 'count'>, run: { now: number; durationSeconds: number; requests: number; marginSeconds?: number }): string | undefined {
  const margin = run.marginSeconds ?? CORPUS_MARGIN_SECONDS;
  const left = Math.floor(corpus.notAfter - run.now);
  const window = describeWindow(corpus, run.now);
  if (left <= 0) return `the corpus has expired (${window}): its JWTs would all get 401. Prepare a new one right before the run.`;
  const needed = Math.ceil(run.durationSeconds + margin);
  if (left < needed) {
    return `the corpus is valid for ${left} s more but the run needs ${needed} s (duration + ${margin} s margin); JWT exp is at most 10 minutes, so prepare it right before the run or shorten the run.`;
  }
  if (corpus.count < run.requests) {
    return `the corpus holds ${corpus.count} requests but the run plans ${run.requests}; each event ID can be sent only once (a second send is a duplicate, 409), so prepare it with --count ${run.requests} or more.`;
  }
  return undefined;
}
