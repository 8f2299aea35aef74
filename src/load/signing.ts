/**
 * Signing jobs the driver keeps off its event loop: webhook JWTs (RS256/ES256/EdDSA) and EdDSA client
 * assertions. The same functions run in the worker thread (sign-worker.ts) and, when the driver runs from
 * TypeScript sources (tests) where no compiled worker file exists, on the main thread.
 */
import { randomUUID } from 'node:crypto';
import { buildClientAssertion, buildWebhookClaims, signWebhookJwt } from '../crypto/index.js';
import type { SigningJwk } from '../profile/types.js';

export interface WebhookJwtJob {
  kind: 'webhook-jwt';
  key: SigningJwk;
  /** `sub`. */
  baseUrl: string;
  /** `aud`: the full listener URL under webhookBaseUrl. */
  webhookUrl: string;
  /** The body pool; each JWT binds one of them through htb_s256. */
  bodies: string[];
  /** `exp` seconds after signing (≤ 600). */
  expIn: number;
}

export interface AssertionJob {
  kind: 'client-assertion';
  clientId: string;
  clientSecret: string;
  audience: string;
}

/**
 * Seconds the target's clock is ahead of local time (read once from the clock hook, test-hooks.md): every
 * `iat`/`exp` is built from local time plus this, so a target whose clock a conformance run moved forward
 * still accepts them. 0 or absent: local time.
 */
export type SignJob = (WebhookJwtJob | AssertionJob) & { clockOffsetSeconds?: number };

export interface SignedItem {
  token: string;
  /** Webhook JWTs: the event ID (= jti) and which body was bound. */
  eventId?: string;
  body?: number;
  /** Unix seconds of the earliest expiry in the batch's items. */
  exp: number;
}

export type Signer = (count: number) => Promise<SignedItem[]>;

/** Whole Unix seconds as the target sees them: local time plus the offset read from its clock hook. */
export function nowSeconds(offsetSeconds = 0): number {
  return Math.floor(Date.now() / 1000 + offsetSeconds);
}

/** A signer bound to one job; `next` rotates through the body pool across batches. */
export function createSigner(job: SignJob): Signer {
  if (job.kind === 'webhook-jwt') {
    const bodies = job.bodies.map((text) => Buffer.from(text, 'utf8'));
    let next = 0;
    return async (count) => {
      const now = nowSeconds(job.clockOffsetSeconds);
      const items: SignedItem[] = [];
      for (let i = 0; i < count; i += 1) {
        const body = next++ % bodies.length;
        const eventId = randomUUID();
        const claims = buildWebhookClaims({ baseUrl: job.baseUrl, webhookUrl: job.webhookUrl, eventId, body: bodies[body], now, expIn: job.expIn });
        items.push({ token: await signWebhookJwt({ key: job.key, claims }), eventId, body, exp: now + job.expIn });
      }
      return items;
    };
  }
  return async (count) => {
    const now = nowSeconds(job.clockOffsetSeconds);
    const items: SignedItem[] = [];
    for (let i = 0; i < count; i += 1) {
      const token = await buildClientAssertion({ clientId: job.clientId, clientSecret: job.clientSecret, audience: job.audience, now });
      items.push({ token, exp: now + 120 });
    }
    return items;
  };
}
