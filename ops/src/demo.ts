import type { Knex } from 'knex';
import type { S3Settings } from '@media-site/storage';
import { ensureAllJobs } from './ingest/ensure-jobs';
import { migrateLatest } from '@media-site/db';
import { seedDemoCatalog, type SeedSummary } from './seed/demo-rows';
import { seedBucket } from './seed/bucket';
import { writeMediaTree, type MediaTreeSummary } from './seed/media';
import { catalogIsEmpty, hasDemoMarker } from './seed/tables';

export interface EnsureDemoOptions {
  knex: Knex;
  mediaRoot: string;
  log?: (msg: string) => void;
  /** false: never run ffmpeg (the committed sample clip is copied instead). */
  useFfmpeg?: boolean;
  /** STORAGE=s3: the demo media go to this bucket (generated in a scratch folder, see seed/bucket.ts); MEDIA_ROOT is not written. */
  storage?: S3Settings | null;
  /** With `storage`: where the media tree is generated before upload (default: the OS temp dir). */
  scratchDir?: string;
}

export interface EnsureDemoResult {
  migrations: string[];
  /** Set when this call inserted the demo rows. */
  seeded: SeedSummary | null;
  /** Set when the catalog holds the demo rows, so their media tree was checked and completed. */
  media: MediaTreeSummary | null;
  /** Encode jobs for the demo's videos and VODs (queued now: renditions still to make). */
  encode: { items: number; queued: number } | null;
}

/**
 * First-run setup for the embedded default: migrate, seed the demo rows when the catalog is
 * empty, and complete the demo media tree. A catalog someone filled otherwise is left alone,
 * and no demo media is written for it.
 */
export async function ensureDemo(options: EnsureDemoOptions): Promise<EnsureDemoResult> {
  const log = options.log ?? (() => {});
  const migrations = await migrateLatest(options.knex);
  if (migrations.length) log(`migrations applied: ${migrations.join(', ')}`);

  let seeded: SeedSummary | null = null;
  if (await catalogIsEmpty(options.knex)) {
    try {
      seeded = await seedDemoCatalog(options.knex);
      log(`demo catalog seeded: ${formatSummary(seeded)}`);
    } catch (err) {
      // Another process starting at the same moment may have seeded first; that is fine.
      if (await catalogIsEmpty(options.knex)) throw err;
    }
  }

  let media: MediaTreeSummary | null = null;
  let encode: EnsureDemoResult['encode'] = null;
  if (seeded || (await hasDemoMarker(options.knex))) {
    // Renditions are made by the encode worker (npm start runs one), not here: the first start stays quick.
    const queueJobs = async (root: string) => {
      const jobs = await ensureAllJobs(options.knex, root, Date.now());
      encode = { items: jobs.items, queued: jobs.queued };
      if (jobs.queued) log(`queued ${jobs.queued} demo videos and VODs for encoding`);
    };
    if (options.storage) {
      const bucket = options.storage.bucket;
      const result = await seedBucket({
        settings: options.storage,
        scratchDir: options.scratchDir,
        // Rows seeded just now: their media go up again, whatever a marker says (the jobs need the originals' signatures).
        force: Boolean(seeded),
        useFfmpeg: options.useFfmpeg,
        log,
        withTree: (root) => queueJobs(root),
      });
      media = result.media;
      if (result.uploaded)
        log(
          `demo media uploaded to the bucket ${bucket}: ${result.uploaded} objects (clips: ${media.clips}; ${media.showcase} items with a 720p showcase clip)`,
        );
    } else {
      media = await writeMediaTree({ mediaRoot: options.mediaRoot, log, useFfmpeg: options.useFfmpeg });
      if (media.written)
        log(
          `demo media written to ${options.mediaRoot}: ${media.written} files (${media.skipped} already there; clips: ${media.clips}; ${media.showcase} items with a 720p showcase clip)`,
        );
      await queueJobs(options.mediaRoot);
    }
    // The showcase items run 30-60 s, not the sample's 2 s their rows were seeded with: the cards say
    // so from the first listing (no service has cached one yet: this runs before they start).
    for (const { type, path, seconds } of media.durations)
      await options
        .knex(type === 'video' ? 'videos' : 'vods')
        .where({ path })
        .update({ duration: seconds });
  }
  return { migrations, seeded, media, encode };
}

export function formatSummary(summary: object): string {
  return Object.entries(summary)
    .map(([key, value]) => `${key} ${Array.isArray(value) ? value.length : String(value)}`)
    .join(', ');
}
