/**
 * The client toolkit: the only folder that speaks HTTP to a target (and the only importer of undici).
 */
export { createTargetClient, readTargetClock, type ClockReading, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from './target-client.js';
export { createRecorder, type InternalRecorder, type RecorderOptions } from './recorder.js';
export { REDACTED, Redactor, redact, secretShapes } from './redact.js';
export { startBaitServer, type BaitDocument, type BaitServer } from './bait-server.js';
export { setServedExtraKeys, startJwksControl, type JwksControl, type JwksControlServer } from './jwks-control.js';
export { SecretRegistry, runSecrets } from './secret-registry.js';
export { profileSecrets } from './profile-secrets.js';
export { startJwksServer, startProfileJwksServers, type JwksMode, type JwksServer, type JwksServerOptions } from './jwks-server.js';
export { buildWebhook, defaultWebhookBody, listenerPath, padJson, type BuiltWebhook, type WebhookAuth, type WebhookContext } from './webhooks.js';
export { PageWalkError, DEFAULT_MAX_PAGES } from './api.js';
export { mangleSignature, type SignatureMangle } from './signature-mangle.js';
export { CLIENT_ASSERTION_TYPE, refreshMarginSeconds } from './tokens.js';
export { CLOCK_CACHE_MS } from './hooks.js';
export { retryAfterMs } from './rate-limit.js';
export type * from './types.js';
export { fetchDescriptionText } from './description-fetch.js';
