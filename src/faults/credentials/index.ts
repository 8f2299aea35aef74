/** The credentials faults: one file each; every export of this module is a fault definition. */
export * from './client-id-with-port.js';
export * from './client-id-without-use-case.js';
export * from './secret-empty-service-domain.js';
export * from './secret-jwk-mismatched-x.js';
export * from './secret-jwk-wrong-curve.js';
export * from './secret-padded-base64.js';
export * from './secret-version-v2.js';
export * from './secret-wrong-prefix.js';
