import sharp from 'sharp';
import type { StartOptions } from '../server';
import { putAll, startTempMedia, type TempMedia } from '../testing';
import { parseKeyRing } from '@media-site/contracts/token';

export const TEST_KEYS = 'k2:second-test-secret-value,k1:first-test-secret-value';
export const keys = parseKeyRing(TEST_KEYS);

/** 1000 bytes whose value depends on the offset, so any misplaced byte shows. */
export const RANGE_DATA = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 7 + 3) % 251));

export async function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 200 } } })
    .jpeg()
    .toBuffer();
}

export { put, putAll, raw, type RawResponse } from '../testing';

export type Fixture = TempMedia;

export async function startFixture(env: Record<string, string> = {}, options: StartOptions = {}): Promise<Fixture> {
  const image = await jpeg(800, 600);
  return startTempMedia({ MEDIA_TOKEN_KEYS: TEST_KEYS, ...env }, options, async (root) => {
    await putAll(root, {
      'freephotos/range/data.bin': RANGE_DATA,
      'freephotos/range/empty.bin': '',
      'photosthumbs/set-1/large.jpg': image,
      'videothumbs/clip-1/clip-1_02.jpg': image,
      'vodthumbs/show-1/show-1_02.jpg': image,
      'freephotos/set-1/free.jpg': image,
      'photos/set-1/full.jpg': image,
      'video/clip-1/clip-1001.mp4': RANGE_DATA,
      'vod/show-1/show-1.mp4': RANGE_DATA,
      'vod/show-2/show-2.mp4': RANGE_DATA,
    });
  });
}
