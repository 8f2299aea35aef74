/**
 * §2.1 "Allowed IPs", §7 (ruling 7): an IP-restricted credential gets no token from outside its CIDRs,
 * whatever a forwarding header claims. The harness connects from outside the blocks (the profile says so
 * of credentials.ipRestricted) and names an address inside them, taken from the profile's allowedCidrs.
 */
import type { RequirementId } from '../src/requirements/catalogue.js';
import { check } from './support/check.js';
import { group } from './support/group.js';
import { expectTokenRefusal } from './support/expect.js';
import { forwardingHeader, spoofedAddress, withForwardingHint, type ForwardingHeader } from './support/forwarding.js';

const FORWARDING: ReadonlyArray<[RequirementId, ForwardingHeader]> = [
  ['CRED-X01', 'X-Forwarded-For'],
  ['CRED-X02', 'Forwarded'],
  ['CRED-X03', 'X-Real-IP'],
];

group('§2.1 Credential IP restriction: forwarding headers', () => {
  for (const [id, name] of FORWARDING) {
    check(id, async ({ client, profile }) => withForwardingHint(async () => {
      const address = spoofedAddress(profile.credentials.ipRestricted?.allowedCidrs);
      const headers = forwardingHeader(name, address);
      const res = await client.requestToken({
        method: 'secret',
        credential: 'ipRestricted',
        headers,
        label: `token: IP-restricted credential with ${name} claiming ${address}`,
      });
      expectTokenRefusal(res, `client-secret token request from outside the credential's CIDRs with ${name}: ${Object.values(headers)[0]} (inside them)`);
    }));
  }
});
