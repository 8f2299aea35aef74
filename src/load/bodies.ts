/**
 * Webhook bodies for load: faker-shaped event objects (the client's default body, seeded) padded to an
 * exact byte size, checked against the target's limit (ruling 13).
 */
import { defaultWebhookBody, padJson } from '../client/webhooks.js';
import { HarnessError } from '../errors.js';
import type { ResolvedProfile } from '../profile/types.js';

/** Distinct bodies per run: enough that a target cannot cache one, few enough to stay small in memory. */
export const BODY_POOL_SIZE = 64;

export function loadBodies(seed: string, bytes: number, profile: ResolvedProfile, count = BODY_POOL_SIZE): Buffer[] {
  const limit = profile.limits.webhookBodyBytes;
  if (!Number.isInteger(bytes) || bytes < 2) {
    throw new HarnessError('LOAD_CONFIG', `--body-bytes must be a whole number of at least 2, got ${bytes}`, { field: '--body-bytes' });
  }
  if (bytes > limit) {
    throw new HarnessError('LOAD_CONFIG', `--body-bytes ${bytes} is over the target's webhook body limit of ${limit} bytes`, {
      field: '--body-bytes',
      hint: 'Larger bodies are refused (400/413) by design; load tests measure accepted requests.',
    });
  }
  const bodies: Buffer[] = [];
  for (let i = 0; i < count; i += 1) bodies.push(padJson(defaultWebhookBody(seed, `load-body-${i}`), bytes));
  return bodies;
}

/** The path prefix of a base URL (usually empty), so requests keep working behind a path-mounted proxy. */
export function basePath(baseUrl: string): string {
  return new URL(baseUrl).pathname.replace(/\/+$/, '');
}
