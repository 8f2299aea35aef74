import type { Catalogue } from './types.js';
import { ruling } from './authority.js';

/**
 * A credential's allowed CIDRs (service.md §2.1 "Allowed IPs", §7; ruling 7) hold against headers that
 * claim another source: the token endpoint judges the address of the connection, so a request from outside
 * the blocks gets no token whatever a forwarding header says.
 */
const forwarded = (header: string) => ({
  section: '2.1',
  ruling: 7,
  level: 'MUST',
  text: `A token request with the IP-restricted credential, from outside its allowed CIDRs, carrying ${header} naming an address inside them, gets no token (any 4xx, no access_token).`,
  group: 'credential-attacks',
  needs: ['credentials.ipRestricted.allowedCidrs'],
  authority: ruling(29),
}) as const;

export const credentialAttackRequirements = {
  'CRED-X01': forwarded('`X-Forwarded-For`'),
  'CRED-X02': forwarded('`Forwarded: for=…` (RFC 7239)'),
  'CRED-X03': forwarded('`X-Real-IP`'),
} as const satisfies Catalogue;
