import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Originals, type S3Settings } from '@media-site/storage';
import { writeMediaTree, type MediaTreeSummary } from './media';

/**
 * Written last, after every demo file is in the bucket: its presence is the "already seeded" check
 * (a dot segment, so never a media path). It keeps the first run's summary (the showcase durations).
 */
export const BUCKET_SEED_MARKER = '.seed/demo-media.json';

export interface BucketSeedOptions {
  settings: S3Settings;
  /**
   * The folder the media tree is generated in before upload, removed once the marker is written;
   * default `media-seed-<bucket>` in the OS temp dir. Files already there are kept (the seed skips
   * them), so a run interrupted before the marker resumes without drawing them again.
   */
  scratchDir?: string | undefined;
  /** Upload again even when the marker is there (the catalog rows were just seeded). */
  force?: boolean;
  useFfmpeg?: boolean | undefined;
  log?: (msg: string) => void;
  /** Runs while the generated tree is still in scratch (`root` stands in for MEDIA_ROOT): the encode jobs read their originals' signatures there. */
  withTree?: (root: string, media: MediaTreeSummary) => Promise<void>;
}

export interface BucketSeedResult {
  media: MediaTreeSummary;
  /** Objects uploaded by this call; 0 when the marker said the bucket was complete. */
  uploaded: number;
}

/**
 * The demo media tree in the bucket (STORAGE=s3): generated into a scratch folder, uploaded family
 * by family with putTree under the keys the media service reads (`{family}/{path}/{file}`), then the
 * marker. A run that finds the marker uploads nothing; an interrupted one left no marker and is redone.
 */
export async function seedBucket(options: BucketSeedOptions): Promise<BucketSeedResult> {
  const bucket = new S3Originals(options.settings);
  try {
    if (!options.force && (await bucket.head(BUCKET_SEED_MARKER))) {
      const kept = JSON.parse((await bucket.readAll(BUCKET_SEED_MARKER)).toString('utf8')) as MediaTreeSummary;
      return { media: { ...kept, written: 0, skipped: kept.written + kept.skipped }, uploaded: 0 };
    }
    const scratch = options.scratchDir ?? join(tmpdir(), `media-seed-${options.settings.bucket}`);
    await mkdir(scratch, { recursive: true });
    // Interrupted before the marker: the folder stays for the next run, which skips the files already drawn.
    const media = await writeMediaTree({ mediaRoot: scratch, log: options.log, useFfmpeg: options.useFfmpeg });
    const families = (await readdir(scratch, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    const keys = await Promise.all(families.map((family) => bucket.putTree(family, join(scratch, family))));
    await options.withTree?.(scratch, media);
    const marker = join(scratch, '.marker.json');
    await writeFile(marker, JSON.stringify(media));
    await bucket.put(BUCKET_SEED_MARKER, marker, 'application/json');
    await rm(scratch, { recursive: true, force: true });
    return { media, uploaded: keys.flat().length };
  } finally {
    bucket.close();
  }
}
