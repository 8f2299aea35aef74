import type { Catalogue } from './types.js';

/** Requirements of the tokens group. */
export const tokensRequirements = {} as const satisfies Catalogue;
