/**
 * Contracts of the reference implementation. It is a plain request handler over these types; the node:http
 * adapter, the sandbox and the faults all program against them. Nothing here knows of the harness.
 *
 * Faults change the reference from outside only: by wrapping the {@link ReferenceHandler} (rewriting
 * requests or responses) or by passing replacement {@link ReferenceDeps}. The implementation itself never
 * asks whether it is faulty.
 */
import type { JWK } from '../crypto/types.js';

/** One HTTP request as the handler sees it: fully read (up to the route's limit), headers lower-cased. */
export interface ReferenceRequest {
  method: string;
  /** Path and query exactly as received (origin-form), e.g. `/api/v1/apps/x/entitlements?page_size=10`. */
  url: string;
  /** Lower-case names; repeated headers joined with `, ` (Node's rule), `set-cookie` never matters here. */
  headers: Record<string, string>;
  /** Peer address as the socket reports it (may be IPv4-mapped IPv6, e.g. `::ffff:127.0.0.1`). */
  remoteAddress: string;
  /** The body, at most `limitFor(...)` bytes; see {@link bodyExceeded}. */
  body: Buffer;
  /** True when the body was longer than the route's limit: `body` then holds only a prefix. */
  bodyExceeded?: boolean;
}

export interface ReferenceResponse {
  status: number;
  /** Lower-case names. `content-length` is set by the adapter. */
  headers: Record<string, string>;
  body: Buffer | string;
}

/**
 * A handler answers at once when it can (an HMAC webhook on in-memory ports: no promise per request), else
 * with a promise (a JWT listener's JWKS, a port that answers later). Whoever calls one takes both: the
 * adapter and fast lane write a ready answer in the same turn, a wrapper goes on with onAnswer (http.ts).
 */
export type ReferenceHandler = (request: ReferenceRequest) => ReferenceResponse | Promise<ReferenceResponse>;

// ---------------------------------------------------------------------------------------------------------
// Configuration: one tenant.

export type CredentialLifespan = '30 days' | '90 days' | 'never expires';

export interface ReferenceCredential {
  name: string;
  /** `<random-id>@<hostname>/<use-case>` */
  clientId: string;
  /** base64url SHA-256 of the Client Secret string: the service never keeps the secret itself. */
  secretSha256: string;
  /** Public half of the Ed25519 key inside the secret; verifies client assertions. */
  publicJwk: JWK;
  lifespan: CredentialLifespan;
  /** Unix seconds. With the lifespan it gives the expiry. */
  createdAt: number;
  /** Empty: usable from anywhere. */
  allowedCidrs: string[];
}

export interface ReferenceEntitlement {
  id: string;
  displayName: string;
  description: string;
}

/** A user of the tenant (the user search lists them; the owners are among them). */
export interface ReferenceUser {
  id: string;
  displayName: string;
  email: string;
}

export interface ReferenceApp {
  appId: string;
  displayName: string;
  /** null: the app has no owners (the API answers `"userIds": null`). */
  ownerIds: string[] | null;
  entitlements: ReferenceEntitlement[];
}

interface ListenerBase {
  listenerId: string;
  /** Empty: accepted from anywhere. */
  allowedCidrs: string[];
  /** The automation is published. */
  published: boolean;
  /** The automation's trigger toggle is on. */
  enabled: boolean;
}

export interface HmacListenerConfig extends ListenerBase {
  method: 'HMAC';
  /** The secret string as displayed to the user; its UTF-8 bytes are the key (ruling 21). */
  hmacSecret: string;
}

export interface JwtListenerConfig extends ListenerBase {
  method: 'JWT';
  /** https URL the JWKS is fetched from. */
  jwksUrl: string;
}

export type ListenerConfig = HmacListenerConfig | JwtListenerConfig;

export interface ReferenceConfig {
  /** Tenant base URL, no trailing slash: `sub` of webhook JWTs and the base of their `aud`. */
  baseUrl: string;
  /** The tenant's domain (hostname only): `aud` of client assertions. */
  tenantDomain: string;
  credentials: ReferenceCredential[];
  apps: ReferenceApp[];
  /** The tenant's users (`POST /api/v1/search/users`); default none. */
  users?: ReferenceUser[];
  listeners: ListenerConfig[];
  /** Lifetime of issued access tokens, seconds. Default 3600. */
  tokenTtlSeconds?: number;
  /** Largest accepted webhook body. Default 65 536 (ruling 13). */
  webhookBodyBytes?: number;
  /** Test hooks of test-hooks.md; off unless asked for. */
  hooks?: { enabled: boolean; token: string };
  /** PEM bundle trusted, besides the system store, when fetching JWKS documents. */
  jwksCaPem?: string;
  /** How long one JWKS fetch may take, the reference's only outbound wait. Default 3 000 ms (jwks.ts). */
  jwksTimeoutMs?: number;
}

// ---------------------------------------------------------------------------------------------------------
// Ports a fault may replace.

/** The one time source of every rule. Unix seconds, fraction allowed. */
export interface Clock {
  now(): number;
  /** Moves time forward for good (the clock hook). Never backwards. */
  advance(seconds: number): void;
}

/** Idempotency records: one per (listener, event ID), kept for the retention period. */
export interface EventStore {
  /**
   * Atomically records the event unless a live record exists. True: first time (the caller proceeds);
   * false: a duplicate. May be async so a replacement can model a remote store.
   */
  claim(listenerId: string, eventId: string, now: number): boolean | Promise<boolean>;
  /** Forgets records older than the retention period; returns how many went. */
  sweep(now: number): number;
  /** Live and not-yet-swept records, for measurements. */
  size(): number;
}

export interface TokenRecord {
  clientId: string;
  /** Unix seconds. */
  expiresAt: number;
}

/** Issued access tokens, keyed by a hash of the token value (the value itself is never kept). */
export interface TokenStore {
  put(tokenHash: string, record: TokenRecord, now: number): void;
  /** The record when the token exists and has not expired at `now`. */
  get(tokenHash: string, now: number): TokenRecord | undefined;
  sweep(now: number): number;
  size(): number;
}

/** A JWKS document as fetched. Only `keys` matters. */
export interface Jwks {
  keys: JWK[];
}

/** Fetches a JWKS document. Throws when it cannot be fetched or is not a JWKS. */
export type JwksFetcher = (url: string) => Promise<Jwks>;

export interface AutomationRun {
  listenerId: string;
  eventId: string;
  /** The parsed JSON body of the webhook. */
  context: unknown;
  /**
   * The body's JSON text exactly as received (UTF-8 decoded), when the runner got it: the runs hook answers
   * this text, so numbers keep every digit (`9007199254740993`, `-0`, `1e400`) that a JavaScript number
   * would lose. Whoever hands on a changed `context` must leave it out.
   */
  contextJson?: string;
  /** Unix seconds, from the clock. */
  at: number;
}

/** Runs automations; the reference's automations only record that they ran and with what context. */
export interface Runner {
  run(run: AutomationRun): void | Promise<void>;
  /** Every remembered run of a listener, oldest first. */
  list(listenerId: string): AutomationRun[];
}

/** Where the reference writes operational lines (unexpected errors). Never given secrets. */
export type Logger = (line: string) => void;

export interface ReferenceDeps {
  clock: Clock;
  eventStore: EventStore;
  tokenStore: TokenStore;
  jwksFetcher: JwksFetcher;
  runner: Runner;
  logger: Logger;
}

/** What {@link import('./reference.js').createReference} returns. */
export interface Reference {
  handle: ReferenceHandler;
  /** Largest body worth reading for a request line; the adapter stops reading one byte after it. */
  limitFor(method: string, url: string): number;
  deps: ReferenceDeps;
  config: Readonly<ReferenceConfig>;
  /** Sweeps everything expired now (also runs on a timer and amortised on inserts). */
  sweep(): void;
  /** Stops the sweep timer. */
  close(): void;
}
