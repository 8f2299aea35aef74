/**
 * Forwarding headers that claim a source address inside an IP-restricted credential's or listener's
 * allowed CIDRs. A service that trusts them lets anyone through its restriction; the checks send them
 * from outside the blocks and expect the refusal to hold.
 */
import { isIPv6 } from 'node:net';
import { addressInside, parseCidrBlock } from '../../src/profile/cidr.js';
import { HarnessError } from '../../src/errors.js';

export type ForwardingHeader = 'X-Forwarded-For' | 'Forwarded' | 'X-Real-IP';

/** An address inside the first block (the profile loader already checked every block parses). */
export function spoofedAddress(cidrs: readonly string[] | undefined): string {
  const block = cidrs?.[0] === undefined ? undefined : parseCidrBlock(cidrs[0]);
  if (block === undefined) throw new HarnessError('INTERNAL', 'a forwarding check ran without allowedCidrs: its needs must list them');
  return addressInside(block);
}

/** The header claiming `address` as the client, in the header's own syntax (RFC 7239 §6 for Forwarded). */
export function forwardingHeader(name: ForwardingHeader, address: string): Record<string, string> {
  if (name !== 'Forwarded') return { [name]: address };
  // An IPv6 node is a quoted, bracketed string in Forwarded (RFC 7239 §6).
  return { Forwarded: isIPv6(address) ? `for="[${address}]"` : `for=${address}` };
}
