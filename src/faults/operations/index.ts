/** The faults of every list and search operation (ruling 34): one file each; every export is a fault definition. */
export * from './list-without-token.js';
export * from './search-default-50.js';
export * from './search-display-name-object.js';
export * from './search-entitlements-unwrapped.js';
export * from './search-no-end-token.js';
export * from './search-page-repeats-last-item.js';
export * from './search-page-size-query-only.js';
export * from './search-page-size-zero-empty.js';
export * from './search-token-not-validated.js';
export * from './search-token-unchecked.js';
export * from './search-users-refused.js';
