import type { Catalogue } from './types.js';

/** Requirements of the pagination group. */
export const paginationRequirements = {} as const satisfies Catalogue;
