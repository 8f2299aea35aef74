import type { Catalogue } from './types.js';

/** Requirements of the automations group. */
export const automationsRequirements = {} as const satisfies Catalogue;
