import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../src/members/password';

describe('member password hashing', () => {
  it('stores the scrypt parameters with the hash and verifies only the right password', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$17\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsf', stored)).toBe(false);
    expect(await hashPassword('correct horse')).not.toBe(stored);
  });

  it('refuses a malformed stored value instead of throwing', async () => {
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
    expect(await verifyPassword('x', '')).toBe(false);
  });
});
