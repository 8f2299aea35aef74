import { hmacRule } from '../support/hmac-faults.js';

export const hmacBodyOptionalInInput = hmacRule({
  name: 'hmac-body-optional-in-input',
  description: 'Also accepts a signature computed without the body (`<timestamp>.<event_id>.`), as sent by senders that sign before serialising.',
  breaks: ['WH-HMAC-13'],
  accepts: ({ signature, sign }) => signature === sign() || signature === sign({ body: '' }),
});
