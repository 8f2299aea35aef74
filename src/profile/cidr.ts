/**
 * The `allowedCidrs` of profile credentials and listeners: checked when the profile loads (a typo is a
 * profile error, not a failed check), and read by checks that pretend, through forwarding headers, to come
 * from an address inside them.
 */
import { isIPv4, isIPv6 } from 'node:net';

export interface CidrBlock {
  address: string;
  prefix: number;
  family: 4 | 6;
}

/** The block, or undefined when the text is not `address/prefix` (or a bare address) of IPv4 or IPv6. */
export function parseCidrBlock(text: string): CidrBlock | undefined {
  const parts = text.trim().split('/');
  if (parts.length > 2) return undefined;
  const [address = '', prefixText] = parts;
  const family = isIPv4(address) ? 4 : isIPv6(address) ? 6 : undefined;
  if (family === undefined) return undefined;
  const max = family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  return prefix <= max ? { address, prefix, family } : undefined;
}

/**
 * An address inside the block: the second address of an IPv4 block wider than /31 (the first is the
 * network's own), else the block's first address. Used as the spoofed source.
 */
export function addressInside(block: CidrBlock): string {
  if (block.family === 6) return firstIPv6(block);
  const octets = block.address.split('.').map(Number);
  let value = ((octets[0]! << 24) >>> 0) + (octets[1]! << 16) + (octets[2]! << 8) + octets[3]!;
  const mask = block.prefix === 0 ? 0 : (0xffffffff << (32 - block.prefix)) >>> 0;
  value = (value & mask) >>> 0;
  if (block.prefix <= 30) value += 1;
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.');
}

function firstIPv6(block: CidrBlock): string {
  const groups = expandIPv6(block.address);
  let bits = block.prefix;
  const masked = groups.map((group) => {
    const keep = Math.max(0, Math.min(16, bits));
    bits -= 16;
    return keep === 0 ? 0 : group & ((0xffff << (16 - keep)) & 0xffff);
  });
  // The network address of a wide IPv6 block is a usable host address (no broadcast, no reserved zero).
  if (block.prefix < 128) masked[7] = (masked[7]! | 1) & 0xffff;
  return masked.map((group) => group.toString(16)).join(':');
}

function expandIPv6(address: string): number[] {
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(zeros).fill('0'), ...right].map((group) => parseInt(group, 16));
}

/** `allowedCidrs` copied when given (a copy: the resolved profile is handed to workers as plain JSON). */
export function cidrsOf(doc: { allowedCidrs?: string[] }): { allowedCidrs?: string[] } {
  return doc.allowedCidrs === undefined ? {} : { allowedCidrs: [...doc.allowedCidrs] };
}
