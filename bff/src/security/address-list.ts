import { BlockList, isIP } from 'node:net';
import { commaList } from '@media-site/contracts/comma-list';

/** The provider's documented webhook source ranges (reference/ccbill.md §4). */
export const CCBILL_WEBHOOK_RANGES =
  '64.38.212.1-64.38.212.254,64.38.215.1-64.38.215.254,64.38.240.1-64.38.240.254,64.38.241.1-64.38.241.254';

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
  /** Entries reaching into private, loopback, link-local or unspecified addresses (this machine, its networks). */
  local: string[];
}

/** The prefix one network of proxies (a compose network, a subnet of load balancers) fits in. */
const NETWORK_BITS = { 4: 24n, 6: 64n } as const;

/** An entry as the first and last address it covers, as numbers. */
interface Span {
  family: 4 | 6;
  lo: bigint;
  hi: bigint;
}

function ipv4Number(address: string): bigint {
  return address.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

function ipv6Number(address: string): bigint {
  // The URL parser writes any IPv6 spelling (an embedded IPv4, zeros) as hex groups with at most one "::".
  const canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const ipNumber = (address: string, family: 4 | 6) => (family === 4 ? ipv4Number(address) : ipv6Number(address));

function cidrSpan(net: string, bits: number, family: 4 | 6): Span {
  const size = family === 4 ? 32n : 128n;
  const host = (1n << (size - BigInt(bits))) - 1n;
  const lo = ipNumber(net, family) & ~host;
  return { family, lo, hi: lo | host };
}

/** `::ffff:0:0/96`: an IPv4 client on a dual-stack socket. An entry reaching into it covers those IPv4 addresses. */
const MAPPED = cidrSpan('::ffff:0:0', 96, 6);

/**
 * The spans an entry covers, IPv4-mapped IPv6 written as the IPv4 addresses it stands for: the
 * lists match an IPv4 peer against both, so `::ffff:0:0/96` is every IPv4 address, not one /64.
 */
function normalised(span: Span): Span[] {
  if (span.family === 4 || span.hi < MAPPED.lo || span.lo > MAPPED.hi) return [span];
  const v4: Span = {
    family: 4,
    lo: (span.lo > MAPPED.lo ? span.lo : MAPPED.lo) - MAPPED.lo,
    hi: (span.hi < MAPPED.hi ? span.hi : MAPPED.hi) - MAPPED.lo,
  };
  return [span, v4];
}

const isWide = (span: Span) =>
  span.lo >> (span.family === 4 ? 32n - NETWORK_BITS[4] : 128n - NETWORK_BITS[6]) !==
  span.hi >> (span.family === 4 ? 32n - NETWORK_BITS[4] : 128n - NETWORK_BITS[6]);

/** Addresses that are this machine or a private network, never the card provider (RFC 1918, 6598, 3927, 4193, 4291). */
const LOCAL: Span[] = [
  ...[
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
  ].map(([net, bits]) => cidrSpan(net as string, bits as number, 4)),
  ...[
    ['::', 127],
    ['fc00::', 7],
    ['fe80::', 10],
  ].map(([net, bits]) => cidrSpan(net as string, bits as number, 6)),
];

const isLocal = (span: Span) => LOCAL.some((local) => local.family === span.family && local.lo <= span.hi && span.lo <= local.hi);

/** Parses "1.2.3.4, 10.0.0.0/8, 64.38.212.1-64.38.212.254, ::1"; throws naming the bad entries. */
export function parseAddressList(spec: string): AddressList {
  const list = new BlockList();
  const bad: string[] = [];
  const wide: string[] = [];
  const local: string[] = [];
  for (const entry of commaList(spec)) {
    const [from = '', to] = entry.split('-').map((s) => s.trim());
    const [net = '', bits] = entry.split('/');
    let span: Span | undefined;
    if (to !== undefined && isIP(from) && isIP(from) === isIP(to)) {
      const family = isIP(from) as 4 | 6;
      span = { family, lo: ipNumber(from, family), hi: ipNumber(to, family) };
      if (span.lo > span.hi) bad.push(entry);
      else list.addRange(from, to, family === 4 ? 'ipv4' : 'ipv6');
    } else if (bits !== undefined && isIP(net) && /^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(net) === 4 ? 32 : 128)) {
      const family = isIP(net) as 4 | 6;
      list.addSubnet(net, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
      span = cidrSpan(net, Number(bits), family);
    } else if (isIP(entry)) {
      const family = isIP(entry) as 4 | 6;
      list.addAddress(entry, family === 4 ? 'ipv4' : 'ipv6');
      span = { family, lo: ipNumber(entry, family), hi: ipNumber(entry, family) };
    } else bad.push(entry);
    if (!span || span.lo > span.hi) continue;
    const spans = normalised(span);
    if (spans.some(isWide)) wide.push(entry);
    if (spans.some(isLocal)) local.push(entry);
  }
  if (bad.length > 0) throw new Error(`not an address, range or CIDR: ${bad.join(', ')}`);
  return {
    spec,
    wide,
    local,
    has(address) {
      if (!address) return false;
      const plain = plainAddress(address);
      const family = isIP(plain);
      return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}
