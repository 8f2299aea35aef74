import { defineFault } from '../support/define.js';
import { onRoute } from '../support/http.js';
import { refusal } from '../support/token-endpoint.js';

export const tokenRefusalsAs401 = defineFault({
  name: 'token-refusals-as-401',
  description: 'Answers every token refusal with 401 `invalid_client`, also malformed requests and unknown grant types.',
  breaks: ['TOK-30', 'TOK-32', 'TOK-34'],
  wrap: (handler) =>
    onRoute('token', handler, async (request, _route, next) => {
      const response = await next(request);
      return response.status >= 400 && response.status < 500 ? refusal(401, 'invalid_client', 'the token request was refused') : response;
    }),
});
