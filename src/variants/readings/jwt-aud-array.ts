import { listenerUrl } from '../../faults/support/http.js';
import { jwtRule } from '../../faults/support/jwt-faults.js';
import { defineVariant } from '../define.js';

export const jwtAudArray = defineVariant(
  { area: 'webhook-jwt', stacks: 'RFC 7519 §4.1.3; golang-jwt `WithAudience`, jose `jwtVerify({ audience })`, PyJWT `audience=`', touches: ['WH-JWT-28'] },
  jwtRule({
    name: 'jwt-aud-array',
    description: 'Accepts an `aud` array that holds the listener URL, alone or among other audiences, as RFC 7519 §4.1.3 and the JWT libraries read it.',
    breaks: ['WH-JWT-X16'],
    decide: (check) => {
      const { verdict, decoded, env, listener } = check;
      const aud = decoded?.payload?.aud;
      if (verdict?.ok !== false || verdict.reason !== 'aud-mismatch' || !Array.isArray(aud)) return 'reference';
      return aud.includes(listenerUrl(env.tenant, listener.listenerId)) ? 'accept' : 'reference';
    },
  }),
);
