import type { Catalogue } from './types.js';

/** Requirements of the webhook-hmac group. */
export const webhookHmacRequirements = {} as const satisfies Catalogue;
