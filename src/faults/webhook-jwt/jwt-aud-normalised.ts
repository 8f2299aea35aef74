import { jwtRule } from '../support/jwt-faults.js';
import { listenerUrl } from '../support/http.js';

const normalise = (url: string): string => url.toLowerCase().replace(/\/+$/, '');

export const jwtAudNormalised = jwtRule({
  name: 'jwt-aud-normalised',
  description: 'Compares `aud` with the listener URL case-insensitively and ignoring a trailing slash, not as the exact string (RFC 7519 §2).',
  breaks: ['WH-JWT-X14'],
  decide: (check) => {
    const { verdict, decoded, env, listener } = check;
    const aud = decoded?.payload?.aud;
    if (verdict?.ok !== false || verdict.reason !== 'aud-mismatch' || typeof aud !== 'string') return 'reference';
    return normalise(aud) === normalise(listenerUrl(env.tenant, listener.listenerId)) ? 'accept' : 'reference';
  },
});
