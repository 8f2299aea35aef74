import { defineFault } from '../support/define.js';
import { onRoute } from '../support/http.js';
import { credentialById, grantOf, tokenForm } from '../support/token-endpoint.js';

export const credentialCidrsAssertionOnly = defineFault({
  name: 'credential-cidrs-assertion-only',
  description: 'Enforces the credential\'s allowed CIDRs for client assertions only: the basic method works from any address.',
  breaks: ['TOK-37'],
  wrap: (handler, env) =>
    onRoute('token', handler, async (request, _route, next) => {
      const form = tokenForm(request);
      const cidr = form && grantOf(form) === 'secret' ? credentialById(env.tenant, form.get('client_id'))?.config.allowedCidrs[0] : undefined;
      return next(cidr ? { ...request, remoteAddress: cidr.split('/')[0]! } : request);
    }),
});
