/**
 * The reference implementation of the access-governance service: a request handler over injected ports,
 * and its node:http adapter. Knows nothing of the harness.
 */
export type {
  AutomationRun,
  Clock,
  CredentialLifespan,
  EventStore,
  HmacListenerConfig,
  Jwks,
  JwksFetcher,
  JwtListenerConfig,
  ListenerConfig,
  Logger,
  Reference,
  ReferenceApp,
  ReferenceConfig,
  ReferenceCredential,
  ReferenceDeps,
  ReferenceEntitlement,
  ReferenceHandler,
  ReferenceRequest,
  ReferenceResponse,
  Runner,
  TokenRecord,
  TokenStore,
} from './types.js';
export { createReference, defaultDeps, DEFAULT_TOKEN_TTL_SECONDS } from './reference.js';
export { createClock } from './clock.js';
export { createMemoryEventStore, type MemoryEventStoreOptions } from './event-store.js';
export { createMemoryTokenStore, type MemoryTokenStoreOptions } from './token-store.js';
export { createMemoryRunner } from './runner.js';
export { createHttpsJwksFetcher, createJwksCache, parseJwks, type HttpsJwksFetcherOptions, type JwksCache } from './jwks.js';
export { createAddressMatcher, normaliseAddress, parseCidr, type AddressMatcher } from './cidr.js';
export { credentialExpiry, sha256Url } from './credentials.js';
export { parsePageSize } from './api.js';
export { HOOKS_PREFIX } from './hooks.js';
export { TOKEN_BODY_LIMIT } from './token-endpoint.js';
export { WEBHOOK_PATH_PREFIX } from './webhooks.js';
export {
  closeServer,
  createNodeListener,
  createReferenceServer,
  serveReference,
  type NodeAdapterOptions,
  type ReferenceServerOptions,
  type ReferenceServer,
  type ServeOptions,
} from './node-adapter.js';
