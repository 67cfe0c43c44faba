import { isIPv4, isIPv6 } from 'node:net';

/**
 * Who a client address counts as in a per-address rate limit. An IPv6 client usually owns a whole
 * /64, so the /64 counts as one address (or each attempt could come from a fresh one);
 * IPv4-mapped IPv6 is plain IPv4; what is no IP address at all is its own key.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (isIPv4(address) || !isIPv6(address)) return address;
  return `${ipv6Groups(address.split('%')[0]).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros (`::` expanded). */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => g.replace(/^0+(?=.)/, ''));
}
