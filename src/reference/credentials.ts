/**
 * The tenant's API credentials as the service keeps them: hash of the secret, public key, lifespan and
 * allowed CIDRs, looked up by Client ID.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createAddressMatcher, type AddressMatcher } from './cidr.js';
import type { CredentialLifespan, ReferenceCredential } from './types.js';

const LIFESPAN_SECONDS: Record<CredentialLifespan, number> = {
  '30 days': 30 * 86_400,
  '90 days': 90 * 86_400,
  'never expires': Number.POSITIVE_INFINITY,
};

export interface CredentialEntry {
  credential: ReferenceCredential;
  /** Unix seconds; Infinity for "never expires". */
  expiresAt: number;
  addresses: AddressMatcher;
}

export function credentialExpiry(credential: ReferenceCredential): number {
  return credential.createdAt + LIFESPAN_SECONDS[credential.lifespan];
}

export function indexCredentials(credentials: readonly ReferenceCredential[]): Map<string, CredentialEntry> {
  const index = new Map<string, CredentialEntry>();
  for (const credential of credentials) {
    index.set(credential.clientId, {
      credential,
      expiresAt: credentialExpiry(credential),
      addresses: createAddressMatcher(credential.allowedCidrs),
    });
  }
  return index;
}

export function sha256Url(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** Compares hashes, not secrets, in constant time: the stored side never holds the secret. */
export function secretMatches(given: string, secretSha256: string): boolean {
  const a = Buffer.from(sha256Url(given));
  const b = Buffer.from(secretSha256);
  return a.length === b.length && timingSafeEqual(a, b);
}
