import type { Catalogue } from './types.js';

/** Requirements of the api-auth group. */
export const apiAuthRequirements = {} as const satisfies Catalogue;
