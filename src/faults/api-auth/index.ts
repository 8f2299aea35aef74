/** The api faults: one file each; every export of this module is a fault definition. */
export * from './api-401-without-challenge.js';
export * from './api-403-for-invalid-token.js';
export * from './api-any-bearer-accepted.js';
export * from './api-assertion-tokens-refused.js';
export * from './api-auth-optional-entitlements.js';
export * from './api-basic-scheme-accepted.js';
export * from './api-empty-bearer-accepted.js';
export * from './api-entitlements-forbidden.js';
export * from './api-token-activation-lag.js';
export * from './api-token-expiry-ignored.js';
export * from './api-token-prefix-match.js';
