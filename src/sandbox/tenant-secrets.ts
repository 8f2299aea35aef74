/**
 * Every secret value a sandbox's tenant holds, named as the environment variable a reproducing command
 * reads it from: the Client Secrets, the HMAC listeners' secrets, the hooks token, and the private parts of
 * the JWT listeners' signing keys. The inspector replaces each wherever it appears in what a client sent
 * (a secret pasted into a header, a body or a query is still a secret).
 */
import { parseClientSecret, privateJwkValues } from '../crypto/index.js';
import type { Tenant } from '../tenant/types.js';
import type { NamedSecret } from './redact-exchange.js';

/** The private members of a JWK (RFC 7518 §6.2.2, §6.3.2; OKP `d`). */
const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'] as const;

/** `hmacSecond` → `HMAC_SECOND`. */
function envName(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

export function tenantSecrets(tenant: Tenant): NamedSecret[] {
  const secrets: NamedSecret[] = [];
  for (const [key, credential] of Object.entries(tenant.credentials)) {
    const name = key === 'primary' ? 'CLIENT_SECRET' : `CLIENT_SECRET_${envName(key)}`;
    secrets.push({ name, value: credential.clientSecret });
    // Its parts are secrets too: the encoded private JWK, and the key's private members decoded (as the
    // run's own redaction holds them, client/profile-secrets.ts).
    try {
      const parsed = parseClientSecret(credential.clientSecret);
      secrets.push({ name, value: parsed.encodedJwk });
      for (const value of privateJwkValues(parsed.privateJwk)) secrets.push({ name, value });
    } catch {
      // A tenant's own secrets always parse; one that does not is still replaced whole above.
    }
  }
  for (const [key, listener] of Object.entries(tenant.listeners)) {
    if ('secret' in listener) secrets.push({ name: `${envName(key)}_SECRET`, value: listener.secret });
    else {
      for (const signing of listener.signingKeys) {
        for (const member of PRIVATE_JWK_MEMBERS) {
          const value = (signing as unknown as Record<string, unknown>)[member];
          if (typeof value === 'string') secrets.push({ name: `${envName(key)}_PRIVATE_KEY`, value });
        }
      }
    }
  }
  secrets.push({ name: 'HOOKS_TOKEN', value: tenant.hooks.token });
  // Longest first: a secret that contains another is replaced whole, not around the shorter one.
  return secrets.filter((secret) => secret.value.length >= 8).sort((a, b) => b.value.length - a.value.length);
}
