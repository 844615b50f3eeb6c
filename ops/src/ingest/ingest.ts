import { stat } from 'node:fs/promises';
import type { Knex } from 'knex';
import type { Originals } from '@media-site/storage';
import { ensureJob } from './ensure-jobs';
import { bumpGeneration, readGeneration } from '@media-site/db';
import { ModelDirectory, IngestConflict, modelKey, writeItem, type Change } from './catalog-writer';
import { ffmpegWorks, type FfmpegTools } from '@media-site/encoder';
import { placeItemMedia } from './item-media';
import { bucketStore, localStore, withScratch, type MediaStore } from './media-store';
import { ITEM_TYPES, type ItemType } from './layout';
import type { PlaceMode } from './place';
import { scanFolder, type ScannedItem, type Skip } from './scan';

export interface IngestOptions {
  knex: Knex;
  folder: string;
  mediaRoot: string;
  mode?: PlaceMode;
  /**
   * STORAGE=s3: the bucket every file goes to (originals, thumbnails, frames); nothing is written
   * under mediaRoot. Unset: the local tree under mediaRoot.
   */
  originals?: Originals | null;
  /** STORAGE=s3: derived files are made in a per-run folder under it (ENCODER_SCRATCH_DIR), removed at the end. */
  scratchDir?: string;
  /** Tools to extract video frames with; null never runs ffmpeg. */
  ffmpeg?: FfmpegTools | null;
  /** Validate and report what would change; writes nothing. */
  dryRun?: boolean;
  /** Announces a new generation (Redis); its failure is a warning, the database is the truth. */
  publish?: (generation: number) => Promise<unknown>;
  /** One line per item as it is done. */
  progress?: (line: string) => void;
  /** Before each item (`where`, with `done` of the scanned items finished) and once at the end (`where` empty): the console's progress bar. */
  step?: (done: number, total: number, where: string) => void | Promise<void>;
  /** Unix ms; tests pin the clock. */
  now?: () => number;
}

export type Counts = Record<Change, number>;

export interface IngestReport {
  folder: string;
  dryRun: boolean;
  totals: Counts;
  byType: Record<ItemType, Counts>;
  modelsCreated: number;
  filesWritten: number;
  frames: 'ffmpeg' | 'provided only' | 'not attempted';
  skipped: Skip[];
  /** Items that hit an unexpected error (I/O, database): the command exits 1. */
  failed: Skip[];
  notes: string[];
  generation: { before: number; after: number };
  /** Encode jobs for this folder's videos and VODs: how many were queued, and the ids not finished yet. */
  encode: { queued: number; pending: number[] };
}

export class FolderError extends Error {}

const zero = (): Counts => ({ added: 0, updated: 0, unchanged: 0 });

function modelThumbnail(item: ScannedItem, hasFrame: boolean): string | null {
  if (item.type === 'photos') return `/members/photosthumbs/${item.path}/large.jpg`;
  if ((item.type === 'video' || item.type === 'vod') && hasFrame) return `/members/${item.type}thumbs/${item.path}/${item.path}_02.jpg`;
  return null;
}

function message(err: unknown): string {
  return err instanceof Error ? (err.message.split('\n')[0] ?? err.name) : String(err);
}

/** Adds or updates catalog rows and media for every valid item in `folder`; see docs/operate.md. */
export async function ingestFolder(options: IngestOptions): Promise<IngestReport> {
  const { knex, folder, dryRun = false } = options;
  const isDir = await stat(folder).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) throw new FolderError(`not a directory: ${folder}`);

  const scan = await scanFolder(folder);
  const before = await readGeneration(knex);
  const report: IngestReport = {
    folder,
    dryRun,
    totals: zero(),
    byType: Object.fromEntries(ITEM_TYPES.map((t) => [t, zero()])) as Record<ItemType, Counts>,
    modelsCreated: 0,
    filesWritten: 0,
    frames: 'not attempted',
    skipped: scan.skipped,
    failed: [],
    notes: [],
    generation: { before, after: before },
    encode: { queued: 0, pending: [] },
  };
  const hasVideos = scan.items.some((i) => i.type === 'video' || i.type === 'vod');
  const ffmpeg = !dryRun && hasVideos && options.ffmpeg && (await ffmpegWorks(options.ffmpeg)) ? options.ffmpeg : null;
  if (!dryRun && hasVideos) report.frames = ffmpeg ? 'ffmpeg' : 'provided only';

  const models = await ModelDirectory.load(knex);
  const newModels = new Set<string>();
  const bucket = dryRun ? null : (options.originals ?? null);
  const media = { mediaRoot: options.mediaRoot, bucket };
  const withStore = (work: (store: MediaStore) => Promise<void>) =>
    bucket
      ? withScratch(options.scratchDir, (dir) => work(bucketStore(bucket, dir)))
      : work(localStore(options.mediaRoot, options.mode ?? 'copy'));
  let done = 0;
  await withStore(async (store) => {
    for (const item of scan.items) {
      const where = `${item.type}/${item.path}`;
      await options.step?.(done++, scan.items.length, where);
      try {
        let files: string[] | null = item.type === 'photos' || item.type === 'freephotos' ? item.images : null;
        let hasFrame = false;
        let duration: number | null = null;
        if (!dryRun) {
          // Files first, then the row: a visitor never sees a row whose thumbnail is not there yet.
          const placed = await placeItemMedia(item, { store, ffmpeg });
          report.filesWritten += placed.written;
          report.notes.push(...placed.notes);
          files = placed.images;
          hasFrame = placed.hasFrame;
          duration = placed.duration;
          if (files && !files.length) {
            report.skipped.push({ where, reason: 'no readable images' });
            continue;
          }
        }
        const trx = await knex.transaction();
        try {
          const { result, commit } = await writeItem(trx, models, item, files, modelThumbnail(item, hasFrame), duration);
          if (dryRun) {
            await trx.rollback();
          } else {
            await trx.commit();
            commit();
          }
          if (result.modelCreated && item.type !== 'freephotos') newModels.add(modelKey(item.meta.modelname));
          report.totals[result.change]++;
          report.byType[item.type][result.change]++;
          options.progress?.(`${result.change} ${where}`);
          if (!dryRun && (item.type === 'video' || item.type === 'vod')) {
            const job = await ensureJob(knex, media, item.type, item.path, (options.now ?? Date.now)());
            if (job?.queued) report.encode.queued++;
            if (job && (job.status === 'queued' || job.status === 'running')) report.encode.pending.push(job.id);
          }
        } catch (err) {
          if (!trx.isCompleted()) await trx.rollback();
          throw err;
        }
      } catch (err) {
        if (err instanceof IngestConflict) report.skipped.push({ where, reason: err.message });
        else report.failed.push({ where, reason: message(err) });
      }
    }
  });
  report.modelsCreated = newModels.size;
  await options.step?.(done, scan.items.length, '');

  if (!dryRun && report.totals.added + report.totals.updated > 0) report.generation.after = await bumpGeneration(knex);
  // Announced even when nothing changed: a rerun repairs an announcement a Redis outage lost.
  if (!dryRun && options.publish) {
    try {
      await options.publish(report.generation.after);
    } catch (err) {
      report.notes.push(
        `warning: could not announce catalog generation ${report.generation.after} on Redis (${message(err)}); bff instances pick it up at their next database poll`,
      );
    }
  }
  return report;
}
