/** The pagination faults: one file each; every export of this module is a fault definition. */
export * from './page-early-end.js';
export * from './page-empty-first-token-refused.js';
export * from './page-empty-list-null.js';
export * from './page-items-unwrapped.js';
export * from './page-lagging-end.js';
export * from './page-next-token-snake-case.js';
export * from './page-null-end-token.js';
export * from './page-overlap.js';
export * from './page-size-above-max-as-default.js';
export * from './page-size-below-min-honoured.js';
export * from './page-size-bounds-exclusive.js';
export * from './page-size-default-50.js';
export * from './page-size-lenient-parse.js';
export * from './page-size-zero-as-default.js';
export * from './page-skip.js';
export * from './page-token-not-validated.js';
export * from './page-trailing-empty-page.js';
