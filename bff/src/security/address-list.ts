import { BlockList, isIP } from 'node:net';

/** The provider's documented webhook source ranges (reference/ccbill.md §4). */
export const CCBILL_WEBHOOK_RANGES = '64.38.212.1-64.38.212.254,64.38.215.1-64.38.215.254,64.38.240.1-64.38.240.254,64.38.241.1-64.38.241.254';

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) -> `1.2.3.4`. */
export function plainAddress(address: string): string {
  const trimmed = address.trim();
  return trimmed.toLowerCase().startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}

export interface AddressList {
  spec: string;
  has(address: string | undefined): boolean;
  /** Entries reaching past one /24 (IPv4) or /64 (IPv6): more than one proxy network. */
  wide: string[];
}

/** The prefix one network of proxies (a compose network, a subnet of load balancers) fits in. */
const NETWORK_BITS = { 4: 24, 6: 64 } as const;

function withinOneNetwork(from: string, to: string, family: 4 | 6): boolean {
  const network = new BlockList();
  network.addSubnet(from, NETWORK_BITS[family], family === 4 ? 'ipv4' : 'ipv6');
  return network.check(to, family === 4 ? 'ipv4' : 'ipv6');
}

/** Parses "1.2.3.4, 10.0.0.0/8, 64.38.212.1-64.38.212.254, ::1"; throws naming the bad entries. */
export function parseAddressList(spec: string): AddressList {
  const list = new BlockList();
  const bad: string[] = [];
  const wide: string[] = [];
  for (const entry of spec.split(',').map((e) => e.trim()).filter(Boolean)) {
    const [from = '', to] = entry.split('-').map((s) => s.trim());
    const [net = '', bits] = entry.split('/');
    if (to !== undefined && isIP(from) && isIP(from) === isIP(to)) {
      list.addRange(from, to, isIP(from) === 4 ? 'ipv4' : 'ipv6');
      if (!withinOneNetwork(from, to, isIP(from) as 4 | 6)) wide.push(entry);
    } else if (bits !== undefined && isIP(net) && /^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(net) === 4 ? 32 : 128)) {
      list.addSubnet(net, Number(bits), isIP(net) === 4 ? 'ipv4' : 'ipv6');
      if (Number(bits) < NETWORK_BITS[isIP(net) as 4 | 6]) wide.push(entry);
    } else if (isIP(entry)) list.addAddress(entry, isIP(entry) === 4 ? 'ipv4' : 'ipv6');
    else bad.push(entry);
  }
  if (bad.length > 0) throw new Error(`not an address, range or CIDR: ${bad.join(', ')}`);
  return {
    spec,
    wide,
    has(address) {
      if (!address) return false;
      const plain = plainAddress(address);
      const family = isIP(plain);
      return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}
