import type { Catalogue } from './types.js';

/** Requirements of the webhook-jwt group. */
export const webhookJwtRequirements = {} as const satisfies Catalogue;
