import { defineFault } from '../support/define.js';
import { onRoute } from '../support/http.js';
import { credentialById, tokenForm } from '../support/token-endpoint.js';

export const credentialCidrsIgnored = defineFault({
  name: 'credential-cidrs-ignored',
  description: 'Never compares the source address with the credential\'s allowed CIDRs at the token endpoint.',
  breaks: ['TOK-37', 'TOK-38'],
  wrap: (handler, env) =>
    onRoute('token', handler, async (request, _route, next) => {
      const form = tokenForm(request);
      const cidr = form && credentialById(env.tenant, form.get('client_id'))?.config.allowedCidrs[0];
      // As if the request came from inside the first allowed block: the address no longer matters.
      return next(cidr ? { ...request, remoteAddress: cidr.split('/')[0]! } : request);
    }),
});
