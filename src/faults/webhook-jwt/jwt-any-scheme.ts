import { decodeJwtParts } from '../../crypto/decode.js';
import { header } from '../support/http.js';
import { jwtRule } from '../support/jwt-faults.js';
import { jwtVerdict } from '../support/reauthenticate.js';

export const jwtAnyScheme = jwtRule({
  name: 'jwt-any-scheme',
  description: 'Takes the JWT from the Authorization header whatever its scheme (`DPoP <JWT>` included), not only `Bearer <JWT>`.',
  breaks: ['WH-JWT-05'],
  decide: async ({ request, env, listener, jwt }) => {
    const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header(request, 'authorization') ?? '');
    if (jwt !== undefined || !match || decodeJwtParts(match[2]!).payload === undefined) return 'reference';
    return (await jwtVerdict(env, listener, request, match[2]!)).ok ? 'accept' : 'reference';
  },
});
