import type { Catalogue } from './types.js';

/** Requirements of the idempotency group. */
export const idempotencyRequirements = {} as const satisfies Catalogue;
