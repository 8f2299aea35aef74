/** Target profiles: loading, validation, resolution. */
export type * from './types.js';
export { loadProfile } from './load.js';
export { resolveProfile, type ResolveOptions } from './resolve.js';
export {
  formatProfileErrors,
  profileSchemaPath,
  validateProfileDocument,
  type ProfileProblem,
} from './schema.js';
export type { ProfileDocument } from './document.js';
export { FileRefused, readBoundedFile } from './read-file.js';
export { jsonErrorLocation } from './sources.js';
export { compileJsonSchema, type JsonSchemaCheck } from './json-schema.js';
