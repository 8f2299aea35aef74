import { defineFault } from '../../faults/support/define.js';
import { json, onRoute } from '../../faults/support/http.js';
import { defineVariant } from '../define.js';

export const tokenErrorsFastapiDetail = defineVariant(
  { area: 'tokens', stacks: 'FastAPI `HTTPException` (its default error body `{"detail": …}`)', touches: ['TOK-25', 'TOK-27', 'TOK-29', 'TOK-31', 'TOK-33', 'TOK-35'] },
  defineFault({
    name: 'token-errors-fastapi-detail',
    description: 'Refuses token requests with the same statuses but FastAPI\'s error body `{"detail": "…"}` instead of RFC 6749 §5.2\'s `{"error": …}`.',
    breaks: ['TOK-26', 'TOK-28', 'TOK-30', 'TOK-32', 'TOK-34', 'TOK-36'],
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const response = await next(request);
        if (response.status < 400 || response.status > 499) return response;
        return json(response.status, { detail: 'token request refused' }, { 'cache-control': 'no-store' });
      }),
  }),
);
