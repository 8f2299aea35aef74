import { ignoreAssertionRefusal } from '../support/assertion-faults.js';

/** `https://tenant`, `tenant:443` and `tenant` all reduce to the same host. */
function hostOf(aud: string): string | undefined {
  try {
    return new URL(aud.includes('://') ? aud : `https://${aud}`).hostname;
  } catch {
    return undefined;
  }
}

export const assertionAudAsUrl = ignoreAssertionRefusal({
  name: 'assertion-aud-as-url',
  description: 'Reads the client assertion\'s `aud` as a URL and compares only its host: a scheme or a port in `aud` is accepted.',
  breaks: ['TOK-13', 'TOK-14'],
  ignores: (reason, decoded, tenant) => {
    const aud = decoded.payload?.aud;
    return reason === 'aud-mismatch' && typeof aud === 'string' && hostOf(aud) === tenant.tenantDomain;
  },
});
