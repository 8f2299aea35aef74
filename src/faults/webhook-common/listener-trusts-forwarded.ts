import { listenerTrusting } from '../support/forwarding.js';

export const listenerTrustsForwarded = listenerTrusting('listener-trusts-forwarded', 'forwarded', '`Forwarded: for=`', 'WH-X23');
