/** The generated tenant: what the reference is configured with, and the secrets a client needs. */
import type { PemPair } from '../crypto/certificates.js';
import type { SigningJwk } from '../crypto/types.js';
import type {
  HmacListenerConfig,
  JwtListenerConfig,
  ReferenceApp,
  ReferenceConfig,
  ReferenceCredential,
  ReferenceDeps,
  ReferenceHandler,
} from '../reference/types.js';

export interface TenantCredential {
  clientId: string;
  /** Shown once by a real service; here it goes into the profile. */
  clientSecret: string;
  config: ReferenceCredential;
}

export interface TenantHmacListener {
  listenerId: string;
  secret: string;
  config: HmacListenerConfig;
}

export interface TenantJwtListener {
  listenerId: string;
  /** Private JWKs (kid, alg, use) whose public halves the listener's JWKS must hold. */
  signingKeys: SigningJwk[];
  config: JwtListenerConfig;
}

export interface TenantJwksServer {
  /** https URL the JWT listener fetches; the HARNESS (or the client) serves it, not the reference. */
  url: string;
  host: string;
  port: number;
  /** Leaf certificate for `host` and its key, signed by the local CA. */
  certPem: string;
  keyPem: string;
  /** The local CA the reference trusts for JWKS fetches. */
  caPem: string;
}

export interface Tenant {
  seed: string;
  /** No trailing slash. */
  baseUrl: string;
  /** Hostname in the Client IDs and `aud` of client assertions. */
  tenantDomain: string;
  /** Service-domain segment of the Client Secrets (independent of the tenant domain). */
  secretDomain: string;
  /** Present when the API is served over HTTPS: the local CA (certificate only) clients must trust. */
  apiTls?: { caPem: string };
  credentials: { primary: TenantCredential; ipRestricted: TenantCredential; expired: TenantCredential };
  apps: {
    owners: ReferenceApp;
    missingAppId: string;
    large: ReferenceApp;
    exact: ReferenceApp;
    empty: ReferenceApp;
    /** Apps without entitlements, so the app list and search span more than 100 apps. */
    more: ReferenceApp[];
  };
  listeners: {
    hmac: TenantHmacListener;
    hmacSecond: TenantHmacListener;
    jwt: TenantJwtListener;
    jwtUnreachableJwks: TenantJwtListener;
    ipRestricted: TenantHmacListener;
    inactive: TenantHmacListener;
  };
  jwks: TenantJwksServer;
  hooks: { enabled: boolean; token: string };
  webhookBodyBytes: number;
  /** The reference's configuration for this tenant. */
  reference: ReferenceConfig;
}

/** How a fault (or a test) changes the sandbox: wrap the handler, replace ports. */
export interface SandboxCustomize {
  /**
   * Changes the generated tenant before the reference is configured and the profile is written: what the
   * service hands out (e.g. a fault that issues Client Secrets in a malformed encoding, which its own
   * token endpoint then accepts). Returns the tenant to use.
   */
  tenant?: (tenant: Tenant) => Tenant | Promise<Tenant>;
  wrapHandler?: (handler: ReferenceHandler, tenant: Tenant) => ReferenceHandler;
  /** Gets the default ports, returns the ones to replace. */
  deps?: (deps: ReferenceDeps, tenant: Tenant) => Partial<ReferenceDeps>;
  /**
   * Changes how much of a body the adapter reads per request line. A body within the returned limit reaches
   * the handler with `bodyExceeded` false (e.g. a fault that accepts oversized webhooks).
   */
  limitFor?: (limitFor: (method: string, url: string) => number, tenant: Tenant) => (method: string, url: string) => number;
}

/** What a sandbox with a state directory keeps so that a restart serves the same tenant. */
export interface SandboxStateRecord {
  /** The generated tenant (before any fault changed it): credentials, listeners, keys, secrets. */
  tenant: Tenant;
  /** The local CA of `--tls` (its key too: the restarted server's certificate is issued from it). */
  ca?: PemPair;
  /** The port the server was bound to: the tenant's URLs name it. */
  port: number;
  /** The settings that shaped the tenant; a restart with other values is refused. */
  settings: Record<string, string | number | boolean | null>;
}

/** A state directory (src/state/, `serve --state-dir`) as the sandbox sees it. */
export interface SandboxState {
  dir: string;
  /** What an earlier start kept; undefined on the first start. */
  kept: SandboxStateRecord | undefined;
  /** Keeps the record durably (called once, before the profile is written). */
  keep(record: SandboxStateRecord): Promise<void>;
  /** The reference's ports on the state database. */
  deps: Pick<ReferenceDeps, 'clock' | 'eventStore' | 'runner'>;
  close(): Promise<void>;
}
