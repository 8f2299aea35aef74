import { header } from '../support/http.js';
import { jwtRule } from '../support/jwt-faults.js';

export const jwtAuthOptional = jwtRule({
  name: 'jwt-auth-optional',
  description: 'Verifies the JWT only when an Authorization header is sent: a request without one is accepted.',
  breaks: ['WH-JWT-04'],
  decide: ({ request }) => (header(request, 'authorization') === undefined ? 'accept' : 'reference'),
});
