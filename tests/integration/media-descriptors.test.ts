import { request } from 'node:http';
import { readdir, truncate } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { put, startMediaFixture } from './media-fixture';
import type { MediaFixture } from './media-fixture';

const openDescriptors = async () => (await readdir('/proc/self/fd')).length;

/** Reads until the first chunk arrives, then drops the connection like an impatient client. */
function abortAfterFirstChunk(base: string, path: string, headers: Record<string, string>): Promise<void> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const req = request({ host: hostname, port, path, headers, agent: false }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
      res.once('end', () => resolve());
    });
    req.on('error', () => resolve());
    req.end();
  });
}

describe('client aborts', () => {
  let fx: MediaFixture;
  beforeAll(async () => {
    fx = await startMediaFixture();
    const file = await put(fx.root, 'freephotos/big/big.bin', '');
    await truncate(file, 256 * 1024 * 1024);
  });
  afterAll(() => fx.stop());

  it('1,000 aborted downloads leave no open descriptors', async () => {
    const baseline = await openDescriptors();
    const variants: Array<Record<string, string>> = [
      {},
      { Range: 'bytes=1000-' },
      { Range: 'bytes=0-10,5000000-' },
      { Range: 'bytes=-50000000' },
    ];
    for (let batch = 0; batch < 20; batch += 1) {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          abortAfterFirstChunk(fx.media.url, '/members/freephotos/big/big.bin', variants[i % variants.length] ?? {}),
        ),
      );
    }
    let now = await openDescriptors();
    for (let i = 0; i < 200 && now > baseline; i += 1) {
      await new Promise((r) => setTimeout(r, 25));
      now = await openDescriptors();
    }
    expect(now).toBeLessThanOrEqual(baseline);
  });
});
