import { ignoring, jwtRule } from '../support/jwt-faults.js';
import { jwtVerdict } from '../support/reauthenticate.js';

function reserialised(body: Buffer): Buffer | undefined {
  try {
    return Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8'))), 'utf8');
  } catch {
    return undefined;
  }
}

export const jwtHtbOverParsedJson = jwtRule({
  name: 'jwt-htb-over-parsed-json',
  description: 'Hashes the parsed and re-serialised JSON for `htb_s256` instead of the raw body bytes, so formatting is not protected.',
  breaks: ['WH-JWT-24'],
  decide: async (check) => {
    const body = reserialised(check.request.body);
    if (check.jwt === undefined || body === undefined || ignoring(({ reason }) => reason === 'htb-mismatch')(check) !== 'accept') return 'reference';
    return (await jwtVerdict(check.env, check.listener, check.request, check.jwt, { body })).ok ? 'accept' : 'reference';
  },
});
