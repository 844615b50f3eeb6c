import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { PREVIEW_FAMILIES, PREVIEW_FILES, RENDITION_FAMILIES, type PlayableType } from '@media-site/contracts/playback-layout';
import { enqueue, jobById, jobFor, type JobStatus, originalFile, parseManifest, sourceSig } from '@media-site/db/encode';

async function present(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** Whether every file a finished job's manifest names is still under MEDIA_ROOT. */
export async function outputsPresent(mediaRoot: string, type: PlayableType, path: string, manifestText: string | null): Promise<boolean> {
  const manifest = parseManifest(manifestText);
  if (!manifest) return false;
  const files = [
    ...manifest.renditions.map((r) => join(mediaRoot, RENDITION_FAMILIES[type], path, r.file)),
    ...Object.values(PREVIEW_FILES).map((f) => join(mediaRoot, PREVIEW_FAMILIES[type], path, f)),
  ];
  return (await Promise.all(files.map(present))).every(Boolean);
}

/**
 * Makes sure an item's playable files are (or will be) made from its current original: queues a
 * job when there is none, when the original changed, or when a finished job's files are gone.
 * Null when the original is missing (nothing to encode).
 */
export async function ensureJob(
  db: Knex,
  mediaRoot: string,
  type: PlayableType,
  path: string,
  now: number,
): Promise<{ id: number; queued: boolean; status: JobStatus } | null> {
  const original = await originalFile(db, mediaRoot, type, path);
  const sig = original && (await sourceSig(original));
  if (!sig) return null;
  const job = await jobFor(db, type, path);
  const again = job?.status === 'done' && job.sourceSig === sig && !(await outputsPresent(mediaRoot, type, path, job.manifest));
  const result = await enqueue(db, { type, path, sourceSig: sig, again }, now);
  return { ...result, status: (await jobById(db, result.id))?.status ?? 'queued' };
}

/** ensureJob for every video and VOD of the catalog (the demo seed; `encode --scan` after an upgrade). */
export async function ensureAllJobs(
  db: Knex,
  mediaRoot: string,
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
        const result = await ensureJob(db, mediaRoot, type, String(row.path), now);
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
