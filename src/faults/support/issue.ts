/**
 * For faults in what the service issues: replace a credential's Client ID or Client Secret in the generated
 * tenant, keeping the reference's record of it consistent (it keys credentials by Client ID and keeps the
 * secret's hash), so the faulty credential is exactly what the service would have displayed and honours.
 * The `expired` credential is the one changed: only its own token checks use it, and they expect a refusal
 * whatever its format, so the change shows in the format checks alone.
 */
import { newEd25519Jwk } from '../../crypto/ed25519.js';
import { sha256Base64Url } from '../../crypto/encoding.js';
import type { Tenant } from '../../tenant/types.js';

export type CredentialKey = keyof Tenant['credentials'];

export interface SecretParts {
  prefix: string;
  serviceDomain: string;
  version: string;
  jwkText: string;
}

export function splitSecret(secret: string): SecretParts {
  const [prefix = '', serviceDomain = '', version = '', jwkText = ''] = secret.split(':');
  return { prefix, serviceDomain, version, jwkText };
}

export function joinSecret(parts: SecretParts): string {
  return [parts.prefix, parts.serviceDomain, parts.version, parts.jwkText].join(':');
}

export function secretJwk(secret: string): Record<string, string> {
  return JSON.parse(Buffer.from(splitSecret(secret).jwkText, 'base64url').toString('utf8')) as Record<string, string>;
}

export function encodeJwk(jwk: Record<string, string>): string {
  return Buffer.from(JSON.stringify(jwk), 'utf8').toString('base64url');
}

/** A fresh Ed25519 public key `x`, for a JWK whose `x` must not match its `d`. */
export function foreignX(): string {
  return newEd25519Jwk().x;
}

export interface ClientIdParts {
  randomId: string;
  hostname: string;
  useCase: string;
}

export function splitClientId(clientId: string): ClientIdParts {
  const at = clientId.indexOf('@');
  const slash = clientId.indexOf('/', at);
  return { randomId: clientId.slice(0, at), hostname: clientId.slice(at + 1, slash), useCase: clientId.slice(slash + 1) };
}

/** Replaces the credential's Client ID and/or secret everywhere the tenant holds them. */
export function reissue(tenant: Tenant, key: CredentialKey, change: { clientId?: string; clientSecret?: string }): void {
  const credential = tenant.credentials[key];
  if (change.clientId !== undefined) {
    credential.clientId = change.clientId;
    credential.config.clientId = change.clientId;
  }
  if (change.clientSecret !== undefined) {
    credential.clientSecret = change.clientSecret;
    credential.config.secretSha256 = sha256Base64Url(change.clientSecret);
  }
}
