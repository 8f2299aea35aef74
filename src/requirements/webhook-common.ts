import type { Catalogue } from './types.js';

/** Requirements of the webhook-common group. */
export const webhookCommonRequirements = {} as const satisfies Catalogue;
