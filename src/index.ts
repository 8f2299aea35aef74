/**
 * The programmatic API of access-conformance: `import { … } from 'access-conformance'`.
 *
 * For teams who write their own tests against an implementation of the access-governance service: load a
 * target profile, create a client, obtain tokens, walk pages, send signed webhooks, and read the recorded
 * (redacted) exchanges. Every export is named here on purpose; anything not listed is internal.
 *
 * @packageDocumentation
 */

// ---------------------------------------------------------------------------------------------------------
// Profiles

/**
 * Reads a target profile (JSON), validates it against the shipped schema, resolves `{"env": NAME}` secrets
 * and `{"file": PATH}` key lists, and applies defaults. Throws a {@link HarnessError} (exit code 2) naming
 * the field and the fix for every mistake; never prints a secret.
 */
export { loadProfile } from './profile/index.js';

// ---------------------------------------------------------------------------------------------------------
// The client

/**
 * Creates a {@link TargetClient} for a loaded profile: tokens (cached, refreshed before `expires_in` runs
 * out), API calls, page walks, webhooks, the target's test hooks, and a recorder of every exchange with
 * secrets redacted. Transport failures throw a {@link HarnessError} with a stable code (`TIMEOUT`,
 * `TARGET_UNREACHABLE`, `DNS`, `TLS`, `CONNECTION_RESET`, `RESPONSE_TOO_LARGE`, `HTTP_PROTOCOL`).
 * Call `close()` when done.
 */
export { createTargetClient } from './client/index.js';

/**
 * Creates an {@link ExchangeRecorder}: keeps every request and answer in order, bounded, with the given
 * secrets (and every token, assertion and webhook JWT the client builds) redacted: an exchange is redacted
 * when it is first read, and nothing of it can be read unredacted. Pass it to several clients to collect
 * one log.
 */
export { createRecorder } from './client/index.js';

/**
 * Serves a JWT listener's JWKS (public halves of its signing keys) over HTTPS at `serveJwks.url` with the
 * profile's certificate. `setMode({ omitKid })` serves a JWKS without one key, `setMode('unavailable')`
 * drops connections, `setMode('normal')` restores it.
 */
export { startJwksServer } from './client/index.js';

/** Starts a JWKS server for each profile JWT listener that has `serveJwks`; one `close()` stops them all. */
export { startProfileJwksServers } from './client/index.js';

/**
 * Replaces every given secret (and its URL-encoded, JSON-escaped, base64 and base64url forms), bearer
 * credentials, JWTs and credential fields in a text with `[REDACTED]`: the recorder's rules, for your own
 * log lines. `redact(text, profile.secrets)`.
 */
export { redact } from './client/index.js';

/** Builds a webhook request (URL, headers, body) without sending it, e.g. to prepare a load corpus. */
export { buildWebhook } from './client/index.js';

/** Thrown by page walks that cannot end (`PAGE_LOOP`, `PAGE_LIMIT`); `partial` holds the pages fetched. */
export { PageWalkError } from './client/index.js';

// ---------------------------------------------------------------------------------------------------------
// Credentials and signatures

/**
 * Parses a Client ID `<random-id>@<hostname>/<use-case>` and derives the hostname, token endpoint and API
 * root; throws a `ClientIdError` (code `CLIENT_ID_INVALID`) with the broken rule as `reason`.
 */
export { parseClientId } from './crypto/index.js';

/**
 * Parses a Client Secret `secret-token:<domain>:v1:<base64url JWK>` into its Ed25519 private JWK; throws a
 * `ClientSecretError` (code `CLIENT_SECRET_INVALID`) with the broken rule as `reason`.
 */
export { parseClientSecret } from './crypto/index.js';

/**
 * Builds a signed client assertion (EdDSA JWT: iss = sub = Client ID, aud = tenant domain, exp) for the
 * token endpoint's signed-assertion method; options break single claims on purpose.
 */
export { buildClientAssertion } from './crypto/index.js';

/**
 * The `Webhook-Signature` of an HMAC listener: base64url (no padding) HMAC-SHA256 over
 * `<timestamp>.<event_id>.<body>`, keyed with the UTF-8 bytes of the secret as displayed.
 */
export { hmacSign } from './crypto/index.js';

/** Signs a webhook JWT (RS256, ES256 or EdDSA) with a private JWK; can also forge `alg: none` / HS256. */
export { signWebhookJwt } from './crypto/index.js';

/** The valid claim set of a webhook JWT (sub, aud, iat, exp, jti, htm, htb_s256). */
export { buildWebhookClaims } from './crypto/index.js';

/** Generates a private signing JWK with `kid`, `alg` and `use: "sig"`. */
export { generateSigningKey } from './crypto/index.js';

/** A JWKS document of the public halves of private JWKs (safe to serve). */
export { buildJwks } from './crypto/index.js';

/**
 * Attack building blocks (docs/attacks.md): a valid signature broken one named way (zero, r/s zero, r/s =
 * n, DER, a byte appended or cut), a valid signature moved onto another message, and claim-set JSON with a
 * claim written twice (for the signers' `serialize` option).
 */
export { duplicateClaims, spliceSignature, tamperSignature } from './crypto/index.js';

/** Serves documents on 127.0.0.1 and counts every connection: a URL to put in `jku` / `x5u` and watch. */
export { startBaitServer } from './client/index.js';

/** Serves more keys from a JWKS server started by startProfileJwksServers, from another process (a key rotated in). */
export { setServedExtraKeys } from './client/index.js';

// ---------------------------------------------------------------------------------------------------------
// Errors and exit codes

/** The setup is wrong, not the target (bad profile, unreachable target, timeout...): exit code 2. */
export { HarnessError, isHarnessError } from './errors.js';

/** The target answered and the answer breaks a requirement: exit code 1. */
export { ConformanceFailure, isConformanceFailure } from './errors.js';

/** Process exit codes of every command, and the stable harness error codes. */
export { EXIT, HARNESS_ERROR_CODES } from './errors.js';

// ---------------------------------------------------------------------------------------------------------
// The requirements catalogue

/** One requirement by its stable ID (section, level, text, group, needs, authority). */
export { requirement } from './requirements/catalogue.js';

/** Every requirement of the catalogue, in catalogue order. */
export { allRequirements } from './requirements/catalogue.js';

/** Whether a string is a known requirement ID. */
export { isRequirementId } from './requirements/catalogue.js';

/** The catalogue's version; reports carry it. */
export { CATALOGUE_VERSION } from './requirements/catalogue.js';

/** A requirement's authority in one line (`service.md §5.4: "A mismatch gives 401."`), as `list` prints it. */
export { describeAuthority } from './requirements/catalogue.js';

// ---------------------------------------------------------------------------------------------------------
// Types

export type {
  AccessToken,
  ApiCallOptions,
  AssertionOptions,
  ClientOptions,
  ExchangeRecorder,
  HmacOptions,
  HookRun,
  HttpResponse,
  PageItem,
  PageOptions,
  PageRecord,
  RawRequest,
  RecordedExchange,
  TargetClient,
  TestHooks,
  TokenRequestOptions,
  WalkOptions,
  WalkResult,
  WebhookJwtOptions,
  WebhookOptions,
} from './client/types.js';
export type { BuiltWebhook, JwksMode, JwksServer, JwksServerOptions, RecorderOptions, WebhookAuth } from './client/index.js';
export type { BaitDocument, BaitServer, JwksControl } from './client/index.js';
export type { SignatureTamper } from './crypto/index.js';
export type {
  CredentialKey,
  JwtAlg,
  ListenerKey,
  ResolvedCredential,
  ResolvedJwtListener,
  ResolvedHmacListener,
  ResolvedProfile,
  SigningJwk,
} from './profile/types.js';
export type { HarnessErrorCode } from './errors.js';
export type { Authority, Requirement, RequirementId, RequirementLevel } from './requirements/catalogue.js';
