import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Knex } from 'knex';
import type { Originals } from '@media-site/storage';
import { naming } from './media-store';
import { PREVIEW_FAMILIES, PREVIEW_FILES, RENDITION_FAMILIES, type PlayableType } from '@media-site/contracts/playback-layout';
import { enqueue, jobById, jobFor, type JobStatus, originalFile, parseManifest, sourceSig } from '@media-site/db/encode';

async function present(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** Where the encoder's files are: MEDIA_ROOT, or the bucket with STORAGE=s3 (then nothing local is read). */
export interface MediaPlace {
  mediaRoot: string;
  bucket?: Originals | null;
}

/** Whether every file a finished job's manifest names is still under MEDIA_ROOT (or in the bucket). */
export async function outputsPresent(media: MediaPlace, type: PlayableType, path: string, manifestText: string | null): Promise<boolean> {
  const manifest = parseManifest(manifestText);
  if (!manifest) return false;
  const keys = [
    ...manifest.renditions.map((r) => `${RENDITION_FAMILIES[type]}/${path}/${r.file}`),
    ...Object.values(PREVIEW_FILES).map((f) => `${PREVIEW_FAMILIES[type]}/${path}/${f}`),
  ];
  const { bucket } = media;
  const there = bucket
    ? (key: string) => naming(key, 'read', () => bucket.head(key)).then((h) => h !== null && h.size > 0)
    : (key: string) => present(join(media.mediaRoot, key));
  return (await Promise.all(keys.map(there))).every(Boolean);
}

/** The original's size and mtime (as sourceSig), from the tree or from the bucket's HEAD. */
async function originalSig(db: Knex, media: MediaPlace, type: PlayableType, path: string): Promise<string | null> {
  if (!media.bucket) {
    const original = await originalFile(db, media.mediaRoot, type, path);
    return original && sourceSig(original);
  }
  const key = await originalFile(db, '', type, path);
  const bucket = media.bucket;
  const there = key && (await naming(key, 'read', () => bucket.head(key)));
  return there && there.size > 0 ? `${there.size}-${Math.round(there.mtimeMs)}` : null;
}

/**
 * Makes sure an item's playable files are (or will be) made from its current original: queues a
 * job when there is none, when the original changed, or when a finished job's files are gone.
 * Null when the original is missing (nothing to encode).
 */
export async function ensureJob(
  db: Knex,
  media: MediaPlace,
  type: PlayableType,
  path: string,
  now: number,
): Promise<{ id: number; queued: boolean; status: JobStatus } | null> {
  const sig = await originalSig(db, media, type, path);
  if (!sig) return null;
  const job = await jobFor(db, type, path);
  const again = job?.status === 'done' && job.sourceSig === sig && !(await outputsPresent(media, type, path, job.manifest));
  const result = await enqueue(db, { type, path, sourceSig: sig, again }, now);
  return { ...result, status: (await jobById(db, result.id))?.status ?? 'queued' };
}

/** ensureJob for every video and VOD of the catalog (the demo seed; `encode --scan` after an upgrade). */
export async function ensureAllJobs(
  db: Knex,
  media: string | MediaPlace,
  now: number,
  onItem?: (done: number) => void,
): Promise<{ items: number; queued: number; missing: number }> {
  const summary = { items: 0, queued: 0, missing: 0 };
  for (const [type, table] of [
    ['video', 'videos'],
    ['vod', 'vods'],
  ] as const) {
    let after = 0;
    for (;;) {
      const rows: { id: unknown; path: string }[] = await db(table).where('id', '>', after).orderBy('id').limit(500).select('id', 'path');
      if (!rows.length) break;
      for (const row of rows) {
        const result = await ensureJob(db, typeof media === 'string' ? { mediaRoot: media } : media, type, String(row.path), now);
        summary.items++;
        if (!result) summary.missing++;
        else if (result.queued) summary.queued++;
        onItem?.(summary.items);
      }
      after = Number(rows.at(-1)?.id);
    }
  }
  return summary;
}
