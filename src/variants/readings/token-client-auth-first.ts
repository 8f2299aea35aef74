import { defineFault } from '../../faults/support/define.js';
import { onRoute } from '../../faults/support/http.js';
import { refusal, tokenForm } from '../../faults/support/token-endpoint.js';
import { defineVariant } from '../define.js';

export const tokenClientAuthFirst = defineVariant(
  { area: 'tokens', stacks: 'Spring Authorization Server (`OAuth2ClientAuthenticationFilter` runs before the grant is read), passport `oauth2-client-password`', touches: ['TOK-33', 'TOK-35', 'TOK-36'] },
  defineFault({
    name: 'token-client-auth-first',
    description: 'Authenticates the client before reading the request: a malformed token request it cannot read a client from (a JSON body, no client_id) gets 401 `invalid_client` instead of 400.',
    breaks: ['TOK-34'],
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const response = await next(request);
        const clientId = tokenForm(request)?.get('client_id');
        return response.status === 400 && !clientId ? refusal(401, 'invalid_client', 'client authentication failed') : response;
      }),
  }),
);
