/** The description faults (§9, §5.1, ruling 34): each edits the OpenAPI description the reference serves. */
export * from './openapi-3-0.js';
export * from './openapi-owner-ids-untagged.js';
export * from './openapi-token-url-elsewhere.js';
