import { defineFault } from '../support/define.js';
import { onRoute } from '../support/http.js';
import { refusal } from '../support/token-endpoint.js';

export const tokenRefusalsAs400 = defineFault({
  name: 'token-refusals-as-400',
  description: 'Answers every token refusal with 400 `invalid_request`, also failed client authentication and unknown grant types.',
  breaks: ['TOK-26', 'TOK-28', 'TOK-30'],
  wrap: (handler) =>
    onRoute('token', handler, async (request, _route, next) => {
      const response = await next(request);
      return response.status >= 400 && response.status < 500 ? refusal(400, 'invalid_request', 'the token request was refused') : response;
    }),
});
