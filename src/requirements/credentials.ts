import type { Catalogue } from './types.js';

/** Requirements of the credentials group. */
export const credentialsRequirements = {} as const satisfies Catalogue;
