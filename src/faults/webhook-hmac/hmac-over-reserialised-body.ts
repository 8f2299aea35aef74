import { hmacRule } from '../support/hmac-faults.js';

function reserialised(body: Buffer): string | undefined {
  try {
    return JSON.stringify(JSON.parse(body.toString('utf8')));
  } catch {
    return undefined;
  }
}

export const hmacOverReserialisedBody = hmacRule({
  name: 'hmac-over-reserialised-body',
  description: 'Computes the signature over the parsed and re-serialised JSON instead of the raw body bytes, so formatting is not protected.',
  breaks: ['WH-HMAC-16'],
  accepts: ({ signature, parts, sign }) => {
    const body = reserialised(parts.body);
    return signature === (body === undefined ? sign() : sign({ body }));
  },
});
