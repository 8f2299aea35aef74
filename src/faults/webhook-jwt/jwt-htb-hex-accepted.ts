import { createHash } from 'node:crypto';
import { ignoring, jwtRule } from '../support/jwt-faults.js';

export const jwtHtbHexAccepted = jwtRule({
  name: 'jwt-htb-hex-accepted',
  description: 'Accepts `htb_s256` as the body\'s SHA-256 in hex as well as in base64url.',
  breaks: ['WH-JWT-27'],
  decide: (check) =>
    check.decoded?.payload?.htb_s256 === createHash('sha256').update(check.request.body).digest('hex')
      ? ignoring(({ reason }) => reason === 'htb-mismatch')(check)
      : 'reference',
});
