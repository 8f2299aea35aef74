import { hmacRule } from '../support/hmac-faults.js';

/** `v1,` (Standard Webhooks), `sha256=` (GitHub), `t=…,v1=` style labels: a word and `=` or `,`. */
const SCHEME = /^[A-Za-z0-9]+[=,]/;

export const hmacSchemePrefixStripped = hmacRule({
  name: 'hmac-scheme-prefix-stripped',
  description: 'Strips a scheme label (`v1,`, `sha256=`) from Webhook-Signature before comparing, as other webhook schemes write it: the valid digest behind such a prefix is accepted.',
  breaks: ['WH-HMAC-X10', 'WH-HMAC-X11'],
  accepts: ({ signature, sign }) => signature !== undefined && signature !== '' && signature.replace(SCHEME, '') === sign(),
});
