import { hmacRule } from '../support/hmac-faults.js';

export const hmacStandardBase64Accepted = hmacRule({
  name: 'hmac-standard-base64-accepted',
  description: 'Normalises the signature before comparing (`+`→`-`, `/`→`_`, padding dropped): the standard base64 alphabet is accepted too.',
  breaks: ['WH-HMAC-12'],
  accepts: ({ signature, sign }) => signature !== undefined && signature.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') === sign(),
});
