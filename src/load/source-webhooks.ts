/**
 * Webhook scenarios: webhook-hmac (new events, freshly HMAC-signed), webhook-duplicates (accepted event IDs
 * sent again, expected 409), webhook-jwt (signed in a worker thread, or replayed from a prepared corpus).
 */
import { randomUUID } from 'node:crypto';
import type { LoadRequest, LoadTransport } from './load-transport.js';
import { listenerPath } from '../client/webhooks.js';
import { HarnessError } from '../errors.js';
import type { HmacListenerKey, JwtAlg, ResolvedProfile } from '../profile/types.js';
import { basePath, loadBodies } from './bodies.js';
import { hmacSigner, type HmacSigner } from './hmac-signer.js';
import { jwtSigningKey, type Corpus } from './corpus.js';
import { startSigner, type SignerHandle } from './signer.js';
import { nowSeconds } from './signing.js';
import { PrebuiltQueue, queueSource, type RequestSource } from './source.js';

export interface WebhookSourceOptions {
  profile: ResolvedProfile;
  transport: LoadTransport;
  peakRate: number;
  bodyBytes: number;
  seed: string;
  listener?: HmacListenerKey;
  /** webhook-jwt: which of the listener's keys. */
  alg?: JwtAlg;
  /** webhook-jwt: replay this corpus instead of signing. */
  corpus?: Corpus;
  /** webhook-duplicates: how many accepted event IDs are re-sent round-robin. */
  dupPool?: number;
  /** Seconds the target's clock is ahead of local time (target-clock.ts); every Webhook-Timestamp adds it. */
  clockOffsetSeconds?: number;
}


function hmacTarget(profile: ResolvedProfile, key: HmacListenerKey): { listenerId: string; secret: string } {
  const listener = profile.webhooks[key];
  if (!listener) {
    throw new HarnessError('LOAD_CONFIG', `the profile has no webhooks.${key} listener`, { field: '--listener', hint: 'Add an HMAC listener to the profile.' });
  }
  return listener;
}

/** A webhook request; `auth` is the one header that differs between HMAC and JWT listeners. */
function webhookRequest(path: string, eventId: string, body: Buffer, timestamp: string, auth: [string, string]): LoadRequest {
  return {
    method: 'POST',
    path,
    headers: {
      'content-type': 'application/json',
      'webhook-timestamp': timestamp,
      'webhook-event-id': eventId,
      [auth[0]]: auth[1],
    },
    body,
  };
}

function hmacRequest(path: string, sign: HmacSigner, eventId: string, body: Buffer, timestamp: string): LoadRequest {
  return webhookRequest(path, eventId, body, timestamp, ['webhook-signature', sign(timestamp, eventId, body)]);
}

/** What both HMAC sources start from: the listener, its signer, the request path and the bodies. */
function hmacSetup(options: WebhookSourceOptions, bodyCount?: number) {
  const key = options.listener ?? 'hmac';
  const { listenerId, secret } = hmacTarget(options.profile, key);
  return {
    key,
    listenerId,
    sign: hmacSigner(secret),
    path: basePath(options.profile.baseUrl) + listenerPath(listenerId),
    bodies: loadBodies(options.seed, options.bodyBytes, options.profile, bodyCount),
  };
}

export function hmacSource(options: WebhookSourceOptions): RequestSource {
  const { key, listenerId, sign, path, bodies } = hmacSetup(options);
  let n = 0;
  const queue = new PrebuiltQueue(
    (count) => {
      // One timestamp per batch: batches are built well under a second ahead, far inside the ±300 s window.
      const timestamp = String(nowSeconds(options.clockOffsetSeconds));
      const out: LoadRequest[] = [];
      for (let i = 0; i < count; i += 1) out.push(hmacRequest(path, sign, randomUUID(), bodies[n++ % bodies.length], timestamp));
      return out;
    },
    options.peakRate,
    true,
  );
  return queueSource('webhook-hmac', 200, queue, { listener: key, listenerId, bodyBytes: options.bodyBytes, signing: 'HMAC-SHA256, prebuilt in batches' });
}

export function duplicatesSource(options: WebhookSourceOptions): RequestSource {
  const { key, listenerId, sign, path, bodies } = hmacSetup(options, 8);
  const poolSize = options.dupPool ?? 100;
  const eventIds: string[] = [];
  let n = 0;
  const queue = new PrebuiltQueue(
    (count) => {
      const timestamp = String(nowSeconds(options.clockOffsetSeconds));
      const out: LoadRequest[] = [];
      for (let i = 0; i < count; i += 1) {
        const k = n++;
        out.push(hmacRequest(path, sign, eventIds[k % eventIds.length], bodies[k % bodies.length], timestamp));
      }
      return out;
    },
    options.peakRate,
    true,
  );
  // Priming: each ID must first be accepted once, so that every measured send is a true duplicate.
  const prime = async (): Promise<void> => {
    for (let i = 0; i < poolSize; i += 1) {
      const eventId = randomUUID();
      const res = await options.transport.fetch(hmacRequest(path, sign, eventId, bodies[i % bodies.length], String(nowSeconds(options.clockOffsetSeconds))));
      if (res.status !== 200) {
        throw new HarnessError('LOAD_CONFIG', `priming event ${i + 1} of ${poolSize} got ${res.status} instead of 200`, {
          hint: 'The duplicate scenario needs a listener that accepts new events first; run the conformance suite to see why it does not.',
        });
      }
      eventIds.push(eventId);
    }
  };
  return queueSource('webhook-duplicates', 409, queue, { listener: key, listenerId, bodyBytes: options.bodyBytes, duplicatePool: poolSize }, prime);
}

export function jwtSource(options: WebhookSourceOptions): RequestSource {
  if (options.corpus) return corpusSource(options, options.corpus);
  const { listener, key, alg } = jwtSigningKey(options.profile, options.alg);
  const path = basePath(options.profile.baseUrl) + listenerPath(listener.listenerId);
  const bodies = loadBodies(options.seed, options.bodyBytes, options.profile);
  let signer: SignerHandle | undefined;
  const queue = new PrebuiltQueue(
    async (count) => {
      if (!signer) throw new HarnessError('INTERNAL', 'signer not started');
      const items = await signer.sign(count);
      const timestamp = String(nowSeconds(options.clockOffsetSeconds));
      return items.map((item) => jwtRequest(path, item.eventId ?? '', bodies[item.body ?? 0], item.token, timestamp));
    },
    options.peakRate,
    false,
  );
  const details: Record<string, string | number> = { listenerId: listener.listenerId, alg, kid: key.kid, bodyBytes: options.bodyBytes };
  return queueSource(
    'webhook-jwt',
    200,
    queue,
    details,
    async () => {
      signer = startSigner({
        kind: 'webhook-jwt',
        key,
        baseUrl: options.profile.baseUrl,
        webhookUrl: `${options.profile.webhookBaseUrl}${listenerPath(listener.listenerId)}`,
        bodies: bodies.map((b) => b.toString('utf8')),
        expIn: 300,
        clockOffsetSeconds: options.clockOffsetSeconds,
      });
      details.signing = `${alg} in a ${signer.where === 'worker-thread' ? 'worker thread' : 'main-thread fallback (no compiled worker)'}`;
    },
    async () => {
      await signer?.close();
    },
  );
}

function jwtRequest(path: string, eventId: string, body: Buffer, jwt: string, timestamp: string): LoadRequest {
  return webhookRequest(path, eventId, body, timestamp, ['authorization', `Bearer ${jwt}`]);
}

/** Replays a prepared corpus in order; each entry exactly once (its event ID is spent by the first send). */
function corpusSource(options: WebhookSourceOptions, corpus: Corpus): RequestSource {
  const path = new URL(corpus.url).pathname;
  const bodies = corpus.bodies.map((text) => Buffer.from(text, 'utf8'));
  let n = 0;
  const queue = new PrebuiltQueue(
    (count) => {
      const timestamp = String(nowSeconds(options.clockOffsetSeconds));
      const out: LoadRequest[] = [];
      for (let i = 0; i < count && n < corpus.requests.length; i += 1) {
        const entry = corpus.requests[n++];
        out.push(jwtRequest(path, entry.eventId, bodies[entry.body], entry.jwt, timestamp));
      }
      return out;
    },
    options.peakRate,
    true,
  );
  return queueSource('webhook-jwt', 200, queue, { listenerId: corpus.listenerId, alg: corpus.alg, corpus: `${corpus.count} pre-signed requests` });
}
