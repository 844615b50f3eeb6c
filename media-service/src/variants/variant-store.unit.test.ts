import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VariantStore } from './store';

const dir = await mkdtemp(join(tmpdir(), 'variant-store-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

const bytes = (n: number, fill: number) => Buffer.alloc(n, fill);

describe('variant store, memory tier', () => {
  it('keeps the most recently used variants within its byte budget, none over 1/8 of it', async () => {
    const store = new VariantStore({ dir, memoryBytes: 800, minFreeBytes: 0 });
    for (const [key, fill] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ] as const)
      await store.save(key.repeat(8), 'jpeg', bytes(100, fill));
    expect(store.fromMemory('aaaaaaaa')?.[0]).toBe(1);
    await store.save('big', 'jpeg', bytes(101, 9));
    expect(store.fromMemory('big')).toBeUndefined();
    expect(await store.fromDisk('big', 'jpeg')).toHaveLength(101);
    // 4 more of 100 bytes: 800 in all, then one more pushes out the least recently used (b, not a).
    for (const key of ['e', 'f', 'g', 'h', 'i']) await store.save(key.repeat(8), 'jpeg', bytes(100, 0));
    expect(store.fromMemory('bbbbbbbb')).toBeUndefined();
    expect(store.fromMemory('aaaaaaaa')).toBeDefined();
    expect(store.fromMemory('iiiiiiii')).toBeDefined();
  });

  it('keeps nothing in memory at 0 bytes', async () => {
    const store = new VariantStore({ dir, memoryBytes: 0, minFreeBytes: 0 });
    await store.save('zzzzzzzz', 'jpeg', bytes(10, 1));
    expect(store.fromMemory('zzzzzzzz')).toBeUndefined();
    expect(await store.fromDisk('zzzzzzzz', 'jpeg')).toHaveLength(10);
  });
});
