/**
 * Source-IP allow lists (credentials and listeners). node:net BlockList does the matching; this module
 * parses the CIDR text once and unwraps IPv4-mapped IPv6 peers (`::ffff:127.0.0.1`), which is how a
 * dual-stack socket reports an IPv4 client.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

export interface AddressMatcher {
  /** True when no restriction is configured or the address is inside one of the blocks. */
  allows(address: string): boolean;
}

const ALLOW_ALL: AddressMatcher = { allows: () => true };

export function parseCidr(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } {
  const [address = '', prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) throw new RangeError(`not a CIDR block: ${text}`);
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
  if (family === undefined) throw new RangeError(`not a CIDR block: ${text}`);
  const max = family === 'ipv4' ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max)) throw new RangeError(`not a CIDR block: ${text}`);
  return { address, prefix, family };
}

export function createAddressMatcher(cidrs: readonly string[]): AddressMatcher {
  if (cidrs.length === 0) return ALLOW_ALL;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const { address, prefix, family } = parseCidr(cidr);
    list.addSubnet(address, prefix, family);
  }
  return {
    allows(address) {
      const peer = normaliseAddress(address);
      if (isIPv4(peer)) return list.check(peer, 'ipv4');
      if (isIPv6(peer)) return list.check(peer, 'ipv6');
      // An address we cannot read is outside every block: fail closed.
      return false;
    },
  };
}

export function normaliseAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? (mapped[1] as string) : address;
}
