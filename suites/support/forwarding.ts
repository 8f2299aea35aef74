/**
 * Forwarding headers that claim a source address inside an IP-restricted credential's or listener's
 * allowed CIDRs. A service that trusts them lets anyone through its restriction; the checks send them
 * from outside the blocks and expect the refusal to hold.
 */
import { isIPv6 } from 'node:net';
import { addressInside, parseCidrBlock } from '../../src/profile/cidr.js';
import { ConformanceFailure, HarnessError, isConformanceFailure } from '../../src/errors.js';

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

/**
 * Ruling 29: the likeliest cause of a forwarding-header failure is not the service's code but its
 * deployment trusting forwarding headers from the harness's own address, so the failure says so and how
 * to tell the two apart.
 */
export const FORWARDING_HINT =
  'Likely cause: the target trusts forwarding headers from the harness\'s own address (uvicorn trusts 127.0.0.1 by default: FORWARDED_ALLOW_IPS; Express: the `trust proxy` setting). ' +
  'Fix: run the harness from an address the deployment does not trust, or through the deployment\'s real proxy, and run again.';

/** Runs a forwarding check; a conformance failure it throws carries {@link FORWARDING_HINT}. */
export async function withForwardingHint(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (!isConformanceFailure(error)) throw error;
    throw new ConformanceFailure(`${error.message}. ${FORWARDING_HINT}`, error.expected, error.actual);
  }
}
