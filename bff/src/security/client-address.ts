import { isIP } from 'node:net';
import { plainAddress } from './address-list';

function ipv6Groups(address: string): number[] {
  // The URL parser writes any IPv6 spelling (an embedded IPv4, zeros) as hex groups with at most one "::".
  const canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => parseInt(g, 16));
}

/**
 * Who shares a per-address budget: an IPv4 address as it is, an IPv6 address by its /64 (one
 * subscriber or host is usually given a whole /64, so counting each address apart would give one
 * client 2^64 budgets), an IPv4-mapped IPv6 address as its IPv4 address. Every per-address
 * rate-limit key goes through this; nginx's limit_req zones group the same way.
 */
export function addressBlock(address: string): string {
  const given = plainAddress(address);
  // A scope (`fe80::1%eth0`) names the interface, not the host.
  const plain = given.includes('%') ? given.slice(0, given.indexOf('%')) : given;
  if (isIP(plain) !== 6) return plain;
  const g = ipv6Groups(plain);
  if (g.slice(0, 5).every((n) => n === 0) && g[5] === 0xffff) {
    const [hi = 0, lo = 0] = g.slice(6);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `${g
    .slice(0, 4)
    .map((n) => n.toString(16))
    .join(':')}::/64`;
}
