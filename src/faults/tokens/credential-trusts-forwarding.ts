import { defineFault } from '../support/define.js';
import { anyForwardedClient } from '../support/forwarding.js';
import { onRoute } from '../support/http.js';

export const credentialTrustsForwarding = defineFault({
  name: 'credential-trusts-forwarding',
  description: 'Takes the source address for a credential\'s IP restriction from `X-Forwarded-For`, `Forwarded` or `X-Real-IP` when present: anyone can claim an allowed address at the token endpoint.',
  breaks: ['CRED-X01', 'CRED-X02', 'CRED-X03'],
  wrap: (handler) =>
    onRoute('token', handler, async (request, _route, next) => {
      const claimed = anyForwardedClient(request);
      return next(claimed === undefined ? request : { ...request, remoteAddress: claimed });
    }),
});
