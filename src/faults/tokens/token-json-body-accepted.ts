import { mediaType } from '../../reference/http.js';
import { defineFault } from '../support/define.js';
import { isObject, onRoute } from '../support/http.js';
import { withForm } from '../support/token-endpoint.js';

export const tokenJsonBodyAccepted = defineFault({
  name: 'token-json-body-accepted',
  description: 'Also reads the token request\'s fields from a JSON body, where only application/x-www-form-urlencoded is allowed.',
  breaks: ['TOK-33', 'TOK-34'],
  wrap: (handler) =>
    onRoute('token', handler, async (request, _route, next) => {
      if (mediaType(request) !== 'application/json') return next(request);
      let value: unknown;
      try {
        value = JSON.parse(request.body.toString('utf8'));
      } catch {
        return next(request);
      }
      if (!isObject(value)) return next(request);
      const form = new URLSearchParams();
      for (const [name, field] of Object.entries(value)) if (typeof field === 'string') form.set(name, field);
      return next(withForm(request, form));
    }),
});
