/** The idempotency faults: one file each; every export of this module is a fault definition. */
export * from './duplicate-answered-200.js';
export * from './idempotency-before-auth.js';
export * from './idempotency-duplicate-extends-record.js';
export * from './idempotency-hmac-only.js';
export * from './idempotency-key-includes-body.js';
export * from './idempotency-lru-256.js';
export * from './idempotency-missing.js';
export * from './idempotency-never-expires.js';
export * from './idempotency-per-tenant.js';
export * from './idempotency-racy-claim.js';
export * from './idempotency-ttl-1-day.js';
export * from './run-before-idempotency-check.js';
