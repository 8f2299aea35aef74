/**
 * A scenario's request source from the run's settings: one place for the main thread (one worker) and for
 * each `load --workers` thread (load-worker.ts), which builds its own from the same settings.
 */
import { LOAD_DEFAULTS } from './constants.js';
import type { Corpus } from './corpus.js';
import type { LoadTransport } from './load-transport.js';
import type { ResolvedProfile } from '../profile/types.js';
import { pagesSource, tokenSource } from './source-api.js';
import { duplicatesSource, hmacSource, jwtSource } from './source-webhooks.js';
import type { RequestSource, Scenario } from './source.js';
import type { LoadOptions } from './load-run-options.js';

/** The settings a source is built from: plain data, so a worker thread is given them as they are. */
export type SourceSettings = Pick<LoadOptions, 'bodyBytes' | 'seed' | 'listener' | 'dupPool' | 'alg' | 'tokenMethod' | 'pageSize'>;

export function makeSource(
  scenario: Scenario,
  options: SourceSettings,
  profile: ResolvedProfile,
  transport: LoadTransport,
  peakRate: number,
  corpus: Corpus | undefined,
  clockOffsetSeconds: number,
): RequestSource {
  const common = {
    clockOffsetSeconds,
    profile,
    transport,
    peakRate,
    bodyBytes: options.bodyBytes ?? LOAD_DEFAULTS.bodyBytes,
    seed: options.seed ?? 'load',
    listener: options.listener,
  };
  switch (scenario) {
    case 'webhook-hmac':
      return hmacSource(common);
    case 'webhook-duplicates':
      return duplicatesSource({ ...common, dupPool: options.dupPool ?? LOAD_DEFAULTS.dupPool });
    case 'webhook-jwt':
      return jwtSource({ ...common, alg: options.alg, corpus });
    case 'token':
      return tokenSource({ profile, peakRate, tokenMethod: options.tokenMethod, clockOffsetSeconds });
    case 'pages':
      return pagesSource({ profile, peakRate, pageSize: options.pageSize ?? LOAD_DEFAULTS.pageSize });
  }
}

