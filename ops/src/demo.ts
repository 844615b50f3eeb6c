import type { Knex } from 'knex';
import { ensureAllJobs } from './ingest/ensure-jobs';
import { migrateLatest } from '@media-site/db';
import { seedDemoCatalog, type SeedSummary } from './seed/demo-rows';
import { writeMediaTree, type MediaTreeSummary } from './seed/media';
import { catalogIsEmpty, hasDemoMarker } from './seed/tables';

export interface EnsureDemoOptions {
  knex: Knex;
  mediaRoot: string;
  log?: (msg: string) => void;
  /** false: never run ffmpeg (the committed sample clip is copied instead). */
  useFfmpeg?: boolean;
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
    media = await writeMediaTree({ mediaRoot: options.mediaRoot, log, useFfmpeg: options.useFfmpeg });
    if (media.written)
      log(
        `demo media written to ${options.mediaRoot}: ${media.written} files (${media.skipped} already there; clips: ${media.clips}; ${media.showcase} items with a 720p showcase clip)`,
      );
    // The showcase items run 30-60 s, not the sample's 2 s their rows were seeded with: the cards say
    // so from the first listing (no service has cached one yet: this runs before they start).
    for (const { type, path, seconds } of media.durations)
      await options
        .knex(type === 'video' ? 'videos' : 'vods')
        .where({ path })
        .update({ duration: seconds });
    // Renditions are made by the encode worker (npm start runs one), not here: the first start stays quick.
    const jobs = await ensureAllJobs(options.knex, options.mediaRoot, Date.now());
    encode = { items: jobs.items, queued: jobs.queued };
    if (jobs.queued) log(`queued ${jobs.queued} demo videos and VODs for encoding`);
  }
  return { migrations, seeded, media, encode };
}

export function formatSummary(summary: object): string {
  return Object.entries(summary)
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(', ');
}
