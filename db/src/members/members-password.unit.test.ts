import { describe, expect, it } from 'vitest';
import {
  HashQueueFullError,
  hashesInFlight,
  hashLogNFromEnv,
  hashPassword,
  PRODUCTION_LOG_N,
  setHashLogN,
  setHashQueueLimits,
  verifyPassword,
} from './password';

describe('member password hashing', () => {
  it('stores the scrypt parameters with the hash and verifies only the right password', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(new RegExp(`^scrypt\\$${hashLogNFromEnv()}\\$8\\$1\\$[A-Za-z0-9+/=]+\\$[A-Za-z0-9+/=]+$`));
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsf', stored)).toBe(false);
    expect(await hashPassword('correct horse')).not.toBe(stored);
  });

  it('hashes at the OWASP cost (2^17) unless PASSWORD_HASH_LOG_N lowers it, which production refuses', () => {
    expect(PRODUCTION_LOG_N).toBe(17);
    expect(hashLogNFromEnv({})).toBe(17);
    expect(hashLogNFromEnv({ PASSWORD_HASH_LOG_N: '' })).toBe(17);
    expect(hashLogNFromEnv({ PASSWORD_HASH_LOG_N: '12', NODE_ENV: 'test' })).toBe(12);
    expect(hashLogNFromEnv({ PASSWORD_HASH_LOG_N: '18', NODE_ENV: 'production' })).toBe(18);
    expect(() => hashLogNFromEnv({ PASSWORD_HASH_LOG_N: '12', NODE_ENV: 'Production' })).toThrow(/for tests only/);
    for (const bad of ['9', '21', '1e1', ' 12', '12.5', 'x'.repeat(10_000)]) {
      expect(() => hashLogNFromEnv({ PASSWORD_HASH_LOG_N: bad })).toThrow(/from 10 to 20/);
    }
  });

  it('verifies a hash made at another cost with that cost (the parameters travel with it)', async () => {
    const configured = hashLogNFromEnv();
    try {
      setHashLogN(11);
      const cheap = await hashPassword('correct horse');
      expect(cheap).toMatch(/^scrypt\$11\$8\$1\$/);
      setHashLogN(PRODUCTION_LOG_N);
      const strong = await hashPassword('correct horse');
      expect(strong).toMatch(/^scrypt\$17\$8\$1\$/);
      expect(await verifyPassword('correct horse', cheap)).toBe(true);
      expect(await verifyPassword('correct horse', strong)).toBe(true);
    } finally {
      setHashLogN(configured);
    }
  });

  it('refuses a malformed stored value instead of throwing', async () => {
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
    expect(await verifyPassword('x', '')).toBe(false);
  });
});

describe('the hashing queue (bounded, so sign-ins cannot pile up hashes)', () => {
  it('refuses at once, with 503 and Retry-After, beyond its bound in the process and per owner', async () => {
    setHashQueueLimits({ max: 3, perOwner: 2 });
    // At the production cost, so that the hashes stay in flight while the test looks.
    const configured = hashLogNFromEnv();
    setHashLogN(PRODUCTION_LOG_N);
    try {
      const stored = await hashPassword('correct horse');
      const running = [verifyPassword('x', stored, { owner: 'a' }), verifyPassword('y', stored, { owner: 'a' })];
      // The owner's third is refused while its two run; another owner still gets the last slot.
      const started = performance.now();
      const third = await verifyPassword('z', stored, { owner: 'a' }).catch((err: unknown) => err);
      expect(third).toBeInstanceOf(HashQueueFullError);
      expect(third).toMatchObject({ status: 503, code: 'busy', headers: { 'Retry-After': '1' } });
      const other = verifyPassword('correct horse', stored, { owner: 'b' });
      expect(hashesInFlight()).toBe(3);
      // Full: anyone, and hashing a new password too, is refused without waiting for a hash.
      await expect(verifyPassword('w', stored, { owner: 'c' })).rejects.toBeInstanceOf(HashQueueFullError);
      await expect(hashPassword('new password')).rejects.toBeInstanceOf(HashQueueFullError);
      expect(performance.now() - started).toBeLessThan(50);
      expect(await Promise.all(running)).toEqual([false, false]);
      expect(await other).toBe(true);
      expect(hashesInFlight()).toBe(0);
      // Freed: the owner may hash again.
      expect(await verifyPassword('correct horse', stored, { owner: 'a' })).toBe(true);
    } finally {
      setHashQueueLimits({ max: 8, perOwner: 2 });
      setHashLogN(configured);
    }
  });
});
