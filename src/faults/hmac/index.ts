/** The hmac faults: one file each; every export of this module is a fault definition. */
export * from './hmac-any-part-order.js';
export * from './hmac-body-optional-in-input.js';
export * from './hmac-decoded-key.js';
export * from './hmac-either-key.js';
export * from './hmac-hex-accepted.js';
export * from './hmac-hex-digest.js';
export * from './hmac-over-reserialised-body.js';
export * from './hmac-padded-base64-only.js';
export * from './hmac-prefix-compare.js';
export * from './hmac-presence-only.js';
export * from './hmac-separators-optional.js';
export * from './hmac-signature-optional.js';
export * from './hmac-standard-base64-accepted.js';
export * from './hmac-timestamp-unbound.js';
export * from './webhook-auth-failure-400.js';
