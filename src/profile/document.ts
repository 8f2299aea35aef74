/**
 * The profile document as written (after schema validation, before resolution): secrets may still be
 * `{"env": NAME}` and signing keys `{"file": PATH}` / `{"env": NAME}`. Mirrors the schema.
 */
import type { ProfileOperation, ProfileScope } from './types.js';

export type SecretRef = string | { env: string };

export interface CredentialDoc {
  clientId: string;
  clientSecret: SecretRef;
  allowedCidrs?: string[];
}

export interface HmacListenerDoc {
  listenerId: string;
  secret: SecretRef;
  allowedCidrs?: string[];
}

export type SigningKeysDoc = Array<Record<string, unknown>> | { file: string } | { env: string };

export interface JwtListenerDoc {
  listenerId: string;
  signingKeys: SigningKeysDoc;
  serveJwks?: { url: string; tlsCertFile?: string; tlsKeyFile?: string };
  allowedCidrs?: string[];
}

export interface CountedAppDoc {
  appId: string;
  count: number;
}

export interface ProfileDocument {
  version: 1;
  name?: string;
  baseUrl: string;
  tenantDomain?: string;
  webhookBaseUrl?: string;
  tls?: { caFile?: string; insecureSkipVerify?: boolean };
  credentials: { primary: CredentialDoc; ipRestricted?: CredentialDoc; expired?: CredentialDoc };
  apps?: {
    owners?: { appId: string; ownerIds?: string[] | null };
    missingAppId?: string;
    entitlements?: { large?: CountedAppDoc; exact?: CountedAppDoc; empty?: CountedAppDoc };
  };
  webhooks?: {
    hmac?: HmacListenerDoc;
    hmacSecond?: HmacListenerDoc;
    jwt?: JwtListenerDoc;
    jwtUnreachableJwks?: JwtListenerDoc;
    ipRestricted?: HmacListenerDoc;
    inactive?: HmacListenerDoc;
  };
  hooks?: { baseUrl: string; token?: SecretRef };
  limits?: { webhookBodyBytes?: number };
  openapi?: string;
  operations?: ProfileOperation[];
  scope?: ProfileScope;
}

export const CREDENTIAL_KEYS = ['primary', 'ipRestricted', 'expired'] as const;
export const HMAC_LISTENER_KEYS = ['hmac', 'hmacSecond', 'ipRestricted', 'inactive'] as const;
export const JWT_LISTENER_KEYS = ['jwt', 'jwtUnreachableJwks'] as const;
