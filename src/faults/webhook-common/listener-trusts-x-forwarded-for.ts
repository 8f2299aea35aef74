import { listenerTrusting } from '../support/forwarding.js';

export const listenerTrustsXForwardedFor = listenerTrusting('listener-trusts-x-forwarded-for', 'x-forwarded-for', '`X-Forwarded-For`', 'WH-X22');
