import { acceptAs, webhookFault } from '../support/webhook-faults.js';

const strict = new TextDecoder('utf-8', { fatal: true });

function isUtf8(bytes: Buffer): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export const jsonLenientUtf8 = webhookFault({
  name: 'json-lenient-utf8',
  description: 'Decodes the body as UTF-8 with replacement characters instead of refusing invalid sequences: invalid bytes, overlong forms and encoded surrogates inside JSON strings are accepted.',
  breaks: ['WH-X03', 'WH-X04', 'WH-X05'],
  handle: async (call) =>
    call.request.bodyExceeded || isUtf8(call.request.body)
      ? call.next(call.request)
      : acceptAs(call, { body: Buffer.from(call.request.body.toString('utf8'), 'utf8') }),
});
