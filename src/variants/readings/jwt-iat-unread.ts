import { acceptIfSignedAndClaimsPass, jwtRule } from '../../faults/support/jwt-faults.js';
import { defineVariant } from '../define.js';

export const jwtIatUnread = defineVariant(
  {
    area: 'webhook-jwt',
    stacks: 'Go encoding/json into a claims struct without `iat` (unknown members are skipped); golang-jwt v5 reads `iat` only with `WithIssuedAt()`',
  },
  jwtRule({
    name: 'jwt-iat-unread',
    description: 'Never reads `iat` (§5.4 does not require it), so an `iat` of any JSON type, null included, is ignored; `exp` and `nbf` are still read as JSON numbers only.',
    breaks: ['WH-JWT-X11', 'WH-JWT-X22'],
    decide: async (check) => {
      const payload = check.decoded?.payload;
      if (check.verdict?.ok !== false || payload === undefined || !('iat' in payload) || typeof payload.iat === 'number') return 'reference';
      const { iat: _unread, ...rest } = payload;
      return acceptIfSignedAndClaimsPass(check, rest);
    },
  }),
);
