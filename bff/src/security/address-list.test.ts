import { describe, expect, it } from 'vitest';
import { parseAddressList } from './address-list';

describe('address lists', () => {
  it('judges an IPv4-mapped IPv6 entry by the IPv4 addresses it covers (the list matches IPv4 peers against it)', () => {
    const all = parseAddressList('::ffff:0:0/96');
    expect(all.has('8.8.8.8')).toBe(true);
    expect(all.wide).toEqual(['::ffff:0:0/96']);
    expect(parseAddressList('::ffff:10.0.0.0/104').wide).toHaveLength(1);
    expect(parseAddressList('::/80').wide).toHaveLength(1);
    expect(parseAddressList('::ffff:172.30.89.0/120,::ffff:172.30.89.10').wide).toEqual([]);
    expect(parseAddressList('2001:db8::/64').wide).toEqual([]);
  });

  it('marks private, loopback, link-local and unspecified entries as local, in any spelling', () => {
    const local = [
      '127.0.0.1',
      '::1',
      '10.1.2.3',
      '172.16.0.0/12',
      '192.168.1.0/24',
      '169.254.1.1',
      '100.64.0.1',
      '0.0.0.0',
      'fd00::1',
      'fe80::1',
      '::ffff:10.1.2.3',
      '::ffff:127.0.0.1',
      '64.38.212.0-127.0.0.1',
    ];
    for (const entry of local) expect(parseAddressList(entry).local, entry).toEqual([entry]);
    expect(parseAddressList('64.38.212.0/24,64.38.215.1-64.38.215.254,2001:db8::1,::ffff:64.38.240.17').local).toEqual([]);
  });

  it('refuses a range that runs backwards, naming it', () => {
    expect(() => parseAddressList('10.0.0.9-10.0.0.1')).toThrow(/not an address, range or CIDR: 10.0.0.9-10.0.0.1/);
  });
});
