import type { Catalogue } from './types.js';

/** Requirements of the owners group. */
export const ownersRequirements = {} as const satisfies Catalogue;
