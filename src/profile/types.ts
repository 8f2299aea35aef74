/**
 * A target profile after loading: schema-valid, every `{"env": NAME}` and `{"file": PATH}` resolved, every
 * default applied, files read. This is the only shape the client, the suites and the load driver see.
 * It is plain JSON (vitest `provide` passes it to workers), and it holds secrets: never print it.
 */

// The signing types belong to crypto, which signs with them; profiles list keys of that shape.
import type { JwtAlg, SigningJwk } from '../crypto/types.js';

export type { JwtAlg, SigningJwk };

/**
 * The CIDR blocks an IP-restricted credential or listener was limited to, when the profile says: checks
 * pretend (with forwarding headers) to come from inside them and expect the restriction to hold.
 */
export type AllowedCidrs = string[];

export interface ResolvedCredential {
  clientId: string;
  clientSecret: string;
  allowedCidrs?: AllowedCidrs;
}

export interface ResolvedHmacListener {
  listenerId: string;
  /** The HMAC secret exactly as the service displayed it. */
  secret: string;
  allowedCidrs?: AllowedCidrs;
}

export interface ResolvedServeJwks {
  url: string;
  /** PEM contents (not paths) of the certificate chain and key the harness serves the JWKS with. */
  tlsCert?: string;
  tlsKey?: string;
}

export interface ResolvedJwtListener {
  listenerId: string;
  signingKeys: SigningJwk[];
  serveJwks?: ResolvedServeJwks;
  allowedCidrs?: AllowedCidrs;
}

export interface CountedApp {
  appId: string;
  count: number;
}

/** The profile's `"operations"` entry: an operation named by hand (added to, or refining, the description's). */
export interface ProfileOperation {
  method: string;
  path: string;
  operationId?: string;
  /** Path parameter values, e.g. `{ "app_id": "…" }`. */
  params?: Record<string, string>;
  /** A search's base JSON body (the page fields are added to it). */
  body?: Record<string, unknown>;
  /** `query` or `body`; default: `query` for GET, `body` for POST. */
  paginated?: 'query' | 'body';
  /** The POST body's page field names; default the description's, else `page_size`/`page_token`. */
  bodyFields?: { pageSize: string; pageToken: string };
  /** The response's array property; default `list`. */
  listProperty?: string;
  /** The property each item wraps its object in. */
  itemWrapper?: string;
}

/**
 * The profile's `"scope"`: the operations the target implements, or the ones it leaves out; each entry an
 * operation ID or `METHOD /path`. Exactly one of the two (the schema says so); matched against the run's
 * operations by the engine (engine/scope.ts), which names an entry that matches none.
 */
export type ProfileScope = { implements: string[]; excludes?: never } | { excludes: string[]; implements?: never };

export interface ResolvedProfile {
  version: 1;
  /** Free label for reports; defaults to the base URL's host. */
  name: string;
  /** No trailing slash. */
  baseUrl: string;
  /** `aud` of client assertions: the profile's value, or the hostname of the primary Client ID. */
  tenantDomain: string;
  /** Base of the `aud` of webhook JWTs; defaults to baseUrl. No trailing slash. */
  webhookBaseUrl: string;
  tls: {
    /** PEM contents of tls.caFile, when given. */
    ca?: string;
    insecureSkipVerify: boolean;
  };
  credentials: {
    primary: ResolvedCredential;
    ipRestricted?: ResolvedCredential;
    expired?: ResolvedCredential;
  };
  apps: {
    owners?: { appId: string; ownerIds?: string[] | null };
    missingAppId?: string;
    entitlements: { large?: CountedApp; exact?: CountedApp; empty?: CountedApp };
  };
  webhooks: {
    hmac?: ResolvedHmacListener;
    hmacSecond?: ResolvedHmacListener;
    jwt?: ResolvedJwtListener;
    jwtUnreachableJwks?: ResolvedJwtListener;
    ipRestricted?: ResolvedHmacListener;
    inactive?: ResolvedHmacListener;
  };
  hooks?: { baseUrl: string; token?: string };
  limits: { webhookBodyBytes: number };
  /**
   * The service's OpenAPI description (`"openapi"`): a URL, or a file path made absolute against the
   * profile's folder. Loaded by the run (src/openapi/), not here.
   */
  openapi?: string;
  /** Operations named by hand (`"operations"`), for the per-operation checks (ruling 34). */
  operations?: ProfileOperation[];
  /** The part of the description the target implements (`"scope"`, issue 48), as written. */
  scope?: ProfileScope;
  /**
   * Every secret value the profile holds (client secrets, HMAC secrets, hook token, private key parameters),
   * for redaction. Reporters and recorders replace each occurrence before anything is stored or printed.
   */
  secrets: string[];
}

export type HmacListenerKey = 'hmac' | 'hmacSecond' | 'ipRestricted' | 'inactive';
export type JwtListenerKey = 'jwt' | 'jwtUnreachableJwks';
export type ListenerKey = HmacListenerKey | JwtListenerKey;
export type CredentialKey = keyof ResolvedProfile['credentials'];
