import { jwtRule } from '../support/jwt-faults.js';
import { listenerUrl } from '../support/http.js';

export const jwtAudAnyOf = jwtRule({
  name: 'jwt-aud-any-of',
  description: 'Accepts an `aud` array that holds the listener URL among other audiences (a token addressed to several listeners).',
  breaks: ['WH-JWT-X16'],
  decide: (check) => {
    const { verdict, decoded, env, listener } = check;
    const aud = decoded?.payload?.aud;
    if (verdict?.ok !== false || verdict.reason !== 'aud-mismatch' || !Array.isArray(aud)) return 'reference';
    return aud.includes(listenerUrl(env.tenant, listener.listenerId)) ? 'accept' : 'reference';
  },
});
