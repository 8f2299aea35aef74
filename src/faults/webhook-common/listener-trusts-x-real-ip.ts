import { listenerTrusting } from '../support/forwarding.js';

export const listenerTrustsXRealIp = listenerTrusting('listener-trusts-x-real-ip', 'x-real-ip', '`X-Real-IP`', 'WH-X24');
