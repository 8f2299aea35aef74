/**
 * Every secret a profile holds, derived again from the profile itself: `profile.secrets` from the loader
 * already lists them, but a profile built by hand (users' own tests) may not, and redaction must not depend
 * on who built the object.
 */
import { parseClientSecret, privateJwkValues } from '../crypto/index.js';
import type { ResolvedProfile } from '../profile/types.js';

export function profileSecrets(profile: ResolvedProfile): string[] {
  const out = new Set<string>(profile.secrets ?? []);
  for (const credential of Object.values(profile.credentials)) {
    if (!credential) continue;
    out.add(credential.clientSecret);
    try {
      const parsed = parseClientSecret(credential.clientSecret);
      out.add(parsed.encodedJwk);
      for (const value of privateJwkValues(parsed.privateJwk)) out.add(value);
    } catch {
      // A malformed secret (the token suite sends some on purpose) is still redacted whole above.
    }
  }
  for (const listener of Object.values(profile.webhooks)) {
    if (!listener) continue;
    if ('secret' in listener) out.add(listener.secret);
    else {
      for (const key of listener.signingKeys) for (const value of privateJwkValues(key)) out.add(value);
      if (listener.serveJwks?.tlsKey) out.add(listener.serveJwks.tlsKey);
    }
  }
  if (profile.hooks?.token) out.add(profile.hooks.token);
  return [...out];
}
