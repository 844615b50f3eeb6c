// Shared by the STORAGE=s3 tests (s3-storage, s3-rendition-downloads): originals placed in a test
// bucket, the rest on a local tree, and the media service started on both.
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { signDownloadUrl } from '@media-site/contracts/token';
import { S3Originals } from '@media-site/storage/s3';
import { startTestS3, type TestS3 } from '@media-site/storage/testing-s3';
import { keys, TEST_KEYS, type Fixture } from './helpers';
import { startTempMedia } from '../testing';

/** Every original's mtime, so a test can check the bucket keeps it. */
export const MTIME = new Date('2026-01-02T03:04:05Z');

export const signed = (path: string) => signDownloadUrl(keys, { path, memberId: 7, expiresAt: Math.floor(Date.now() / 1000) + 3600 });

export interface S3Media {
  s3: TestS3;
  store: S3Originals;
  /** Where the uploaded files were written first, named `relative` with `/` as `_`. */
  source: string;
  fx: Fixture;
}

/**
 * A bucket on `port` (0: any free one) holding `originals` (relative path → bytes), a local tree
 * `local` fills, and the media service with STORAGE=s3 on both.
 */
export async function startS3Media(
  port: number,
  originals: Record<string, Buffer>,
  local: (root: string) => Promise<void>,
): Promise<S3Media> {
  const started: Partial<S3Media> = {};
  try {
    started.s3 = await startTestS3(port);
    const store = (started.store = new S3Originals(started.s3.settings));
    const source = (started.source = await mkdtemp(join(tmpdir(), 's3-src-')));
    for (const [relative, data] of Object.entries(originals)) {
      const file = join(source, relative.replaceAll('/', '_'));
      await writeFile(file, data);
      await utimes(file, MTIME, MTIME);
      expect(await store.put(relative, file)).toBe('placed');
    }
    started.fx = await startTempMedia({ MEDIA_TOKEN_KEYS: TEST_KEYS, ...started.s3.env }, {}, local);
    return started as S3Media;
  } catch (error) {
    await stopS3Media(started);
    throw error;
  }
}

/** Stops what `startS3Media` started, also when it stopped halfway. */
export async function stopS3Media(media: Partial<S3Media>): Promise<void> {
  await media.fx?.stop();
  media.store?.close();
  await media.s3?.stop();
  if (media.source) await rm(media.source, { recursive: true, force: true });
}
