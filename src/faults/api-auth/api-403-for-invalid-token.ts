import { defineFault } from '../support/define.js';
import { errorCode, errorResponse, onRoute } from '../support/http.js';

export const api403ForInvalidToken = defineFault({
  name: 'api-403-for-invalid-token',
  description: 'Answers 403 (not 401) when an API call carries a token that is unknown, expired, empty or under another scheme.',
  breaks: ['AUTH-02', 'AUTH-03', 'AUTH-04', 'AUTH-05', 'AUTH-06', 'AUTH-07', 'AUTH-09'],
  wrap: (handler) =>
    onRoute('api', handler, async (request, _route, next) => {
      const response = await next(request);
      return response.status === 401 && errorCode(response) === 'invalid_token'
        ? errorResponse(403, 'forbidden', 'the token does not grant access')
        : response;
    }),
});
