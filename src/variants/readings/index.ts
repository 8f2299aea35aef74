/** The variants: one file each; every export of this module is a variant definition. */
export * from './body-limit-400.js';
export * from './context-numbers-as-doubles.js';
export * from './event-id-uuid-forms.js';
export * from './headers-first-line.js';
export * from './idempotency-lazy-ttl.js';
export * from './json-bom-accepted.js';
export * from './json-invalid-utf8-replaced.js';
export * from './jwks-refresh-on-unknown-kid.js';
export * from './jwt-aud-array.js';
export * from './jwt-duplicate-claims-last-wins.js';
export * from './jwt-iat-unread.js';
export * from './jwt-numeric-date-strings.js';
export * from './page-size-go-atoi.js';
export * from './page-size-pydantic-int.js';
export * from './token-client-auth-first.js';
export * from './token-errors-fastapi-detail.js';
export * from './unknown-listener-401.js';
