import { describe, expect, it } from 'vitest';
import { addressBlock } from './client-address';

describe('addressBlock: who shares a per-address budget', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(addressBlock('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBlock('203.0.113.8')).not.toBe(addressBlock('203.0.113.7'));
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, in any spelling', () => {
    expect(addressBlock('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBlock('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(addressBlock('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('groups IPv6 addresses by /64, whatever their spelling', () => {
    const block = '2001:db8:1:2::/64';
    for (const a of [
      '2001:db8:1:2::1',
      '2001:DB8:1:2:ffff:ffff:ffff:ffff',
      '2001:0db8:0001:0002:0:0:0:9',
      '2001:db8:1:2:abcd::',
      'fe80::1%eth0'.replace('fe80::1', '2001:db8:1:2::5'),
    ]) {
      expect(addressBlock(a), a).toBe(block);
    }
    expect(addressBlock('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressBlock('::1')).toBe('0:0:0:0::/64');
    expect(addressBlock('2001:db8::1')).toBe('2001:db8:0:0::/64');
  });

  it('leaves what is not an address alone (no client address: one shared key)', () => {
    expect(addressBlock('')).toBe('');
    expect(addressBlock('not-an-ip')).toBe('not-an-ip');
  });
});
