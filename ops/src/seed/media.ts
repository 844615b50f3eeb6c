import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { videoDownloadName, vodDownloadName } from '@media-site/contracts/download-name';
import { buildDemoCatalog, type DemoCatalog } from './catalog';
import { fileExists, writeFileAtomic } from './files';
import { renderPicture, resizeJpeg, type Picture } from './image';
import { runPool } from './pool';
import { containerOf, loadSampleClips, type SampleClips } from './sample-video';
import { showcaseClips, type ShowcaseClip } from './showcase-clips';

export const FULL_SIZE = { width: 1600, height: 1067 } as const;
/** Every third photo of a set (the 3rd, 6th, ...) stands upright. */
export const PORTRAIT_SIZE = { width: 1067, height: 1600 } as const;
export const THUMB_SIZE = { width: 320, height: 213 } as const;
export const COVER_SIZE = { width: 640, height: 427 } as const;
export const FRAME_SIZE = { width: 640, height: 360 } as const;
export const FRAME_SUFFIXES = ['02', '05', '10', '15'] as const;

export interface MediaTreeOptions {
  mediaRoot: string;
  catalog?: DemoCatalog;
  /** Image jobs in flight at once. */
  concurrency?: number;
  /** false: skip ffmpeg and copy the committed sample clip (tests of the fallback). */
  useFfmpeg?: boolean;
  /** Where the showcase clips are kept between runs (default: a folder under the OS temp dir). */
  clipCacheDir?: string;
  log?: (msg: string) => void;
}

export interface MediaTreeSummary {
  written: number;
  skipped: number;
  clips: 'ffmpeg' | 'fixture' | 'not needed';
  /** Items given a 30-60 s 720p showcase clip instead of the short sample. */
  showcase: number;
  /** Their running times, for the catalog rows (which the seed wrote with the short sample's). */
  durations: Array<{ type: 'video' | 'vod'; path: string; seconds: number }>;
}

/** One or more files made together (a full photo and its thumbnail share one render). */
interface ImageJob {
  files: string[];
  make: () => Promise<Buffer[]>;
}

function single(file: string, p: Picture): ImageJob {
  return { files: [file], make: async () => [await renderPicture(p)] };
}

function photoJobs(root: string, catalog: DemoCatalog): ImageJob[] {
  const jobs: ImageJob[] = [];
  for (const set of catalog.photosets) {
    jobs.push(single(join(root, 'photosthumbs', set.path, 'large.jpg'), { ...COVER_SIZE, key: set.path, view: 0 }));
    set.files.forEach((image, i) => {
      const full: Picture = {
        ...(i % 3 === 2 ? PORTRAIT_SIZE : FULL_SIZE),
        key: set.path,
        view: i + 1,
        caption: `${set.modelname} · ${i + 1} / ${set.files.length}`,
      };
      jobs.push({
        files: [join(root, 'photos', set.path, image), join(root, 'photosthumbs', set.path, image)],
        make: async () => {
          const big = await renderPicture(full);
          return [big, await resizeJpeg(big, THUMB_SIZE.width, THUMB_SIZE.height)];
        },
      });
    });
  }
  for (const set of catalog.freephotosets) {
    set.files.forEach((image, i) => {
      jobs.push(
        single(join(root, 'freephotos', set.path, image), {
          ...(i % 3 === 2 ? PORTRAIT_SIZE : FULL_SIZE),
          key: set.path,
          view: i + 1,
          caption: `Free preview · ${i + 1} / ${set.files.length}`,
        }),
      );
    });
  }
  return jobs;
}

type Playable = DemoCatalog['videos'][number] | DemoCatalog['vods'][number];

function frameJobs(root: string, dir: 'videothumbs' | 'vodthumbs', rows: readonly Playable[]): ImageJob[] {
  return rows.flatMap((row) =>
    FRAME_SUFFIXES.map((suffix, i) =>
      single(join(root, dir, row.path, `${row.path}_${suffix}.jpg`), { ...FRAME_SIZE, key: row.path, view: i + 1 }),
    ),
  );
}

/** Newest first, as the listings show them. */
const newest = (a: Playable, b: Playable) => b.datetoupload.localeCompare(a.datetoupload) || b.id - a.id;

/**
 * The items that get the long clips: the newest videos and the newest VOD whose files are MP4 by
 * name, so the top of each listing plays, seeks and switches quality like real content.
 */
export function showcaseItems(
  root: string,
  catalog: DemoCatalog,
  clipCount: number,
): { type: 'video' | 'vod'; row: Playable; file: string }[] {
  const videos = catalog.videos
    .filter((v) => videoDownloadName(v.prename).endsWith('.mp4'))
    .sort(newest)
    .slice(0, clipCount)
    .map((row) => ({ type: 'video' as const, row, file: join(root, 'video', row.path, videoDownloadName(row.prename)) }));
  const vods = catalog.vods
    .filter((v) => vodDownloadName(v).endsWith('.mp4'))
    .sort(newest)
    .slice(0, 1)
    .map((row) => ({ type: 'vod' as const, row, file: join(root, 'vod', row.path, vodDownloadName(row)) }));
  return [...videos, ...vods];
}

/** Where each sample clip goes: the download name is the file's real name on disk. */
export function videoFiles(root: string, catalog: DemoCatalog): string[] {
  return [
    ...catalog.videos.map((v) => join(root, 'video', v.path, videoDownloadName(v.prename))),
    ...catalog.vods.map((v) => join(root, 'vod', v.path, vodDownloadName(v))),
  ];
}

/**
 * Writes the demo media tree (layout in the README's media contract). Idempotent: files already
 * present are left alone, so a rerun after an interruption only does the missing work.
 */
export async function writeMediaTree(options: MediaTreeOptions): Promise<MediaTreeSummary> {
  const root = options.mediaRoot;
  const catalog = options.catalog ?? buildDemoCatalog();
  const summary: MediaTreeSummary = { written: 0, skipped: 0, clips: 'not needed', showcase: 0, durations: [] };
  const write = async (file: string, data: Buffer) => {
    await writeFileAtomic(file, data);
    summary.written++;
  };

  // The showcase items' clips and frames come from the clips themselves; made first, as the longest single task.
  const showcase = options.useFfmpeg === false ? [] : await placeShowcase(root, catalog, summary, write, options);
  const own = new Set(showcase.map((s) => s.file));
  const framed = new Set(showcase.map((s) => `${s.type}:${s.row.path}`));

  const jobs = [
    ...photoJobs(root, catalog),
    ...frameJobs(
      root,
      'videothumbs',
      catalog.videos.filter((v) => !framed.has(`video:${v.path}`)),
    ),
    ...frameJobs(
      root,
      'vodthumbs',
      catalog.vods.filter((v) => !framed.has(`vod:${v.path}`)),
    ),
  ];
  await runPool(jobs, options.concurrency ?? availableParallelism() + 1, async (job) => {
    const present = await Promise.all(job.files.map(fileExists));
    if (present.every(Boolean)) {
      summary.skipped += job.files.length;
      return;
    }
    const buffers = await job.make();
    for (const [i, file] of job.files.entries()) {
      const data = buffers[i];
      if (present[i] || !data) continue;
      await write(file, data);
    }
  });

  const clipsNeeded: string[] = [];
  for (const file of videoFiles(root, catalog)) {
    if (own.has(file)) continue;
    if (await fileExists(file)) summary.skipped++;
    else clipsNeeded.push(file);
  }
  if (clipsNeeded.length) {
    const { clips, source } = await loadSampleClips({ useFfmpeg: options.useFfmpeg, log: options.log });
    summary.clips = source;
    await copyClips(clipsNeeded, clips);
    summary.written += clipsNeeded.length;
  }
  return summary;
}

/**
 * Copies the showcase clips (made once per machine, see showcase-clips.ts) and their frames to
 * their items. Without ffmpeg, or if making them fails, those items keep the short sample clip.
 */
async function placeShowcase(
  root: string,
  catalog: DemoCatalog,
  summary: MediaTreeSummary,
  write: (file: string, data: Buffer) => Promise<void>,
  options: MediaTreeOptions,
): Promise<ReturnType<typeof showcaseItems>> {
  let clips: ShowcaseClip[];
  try {
    clips = await showcaseClips(options.clipCacheDir);
  } catch (err) {
    options.log?.(
      `showcase clips not made (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); every item gets the short sample clip`,
    );
    return [];
  }
  const items = showcaseItems(root, catalog, clips.length);
  for (const [i, item] of items.entries()) {
    const clip = clips[i % clips.length];
    if (!clip) continue;
    const frameDir = join(root, item.type === 'video' ? 'videothumbs' : 'vodthumbs', item.row.path);
    const files: [string, string][] = [
      [item.file, clip.file],
      ...FRAME_SUFFIXES.map((suffix): [string, string] => [join(frameDir, `${item.row.path}_${suffix}.jpg`), clip.frames[suffix]]),
    ];
    for (const [dest, source] of files) {
      if (await fileExists(dest)) summary.skipped++;
      else await write(dest, await readFile(source));
    }
    summary.showcase++;
    summary.durations.push({ type: item.type, path: item.row.path, seconds: clip.seconds });
  }
  return items;
}

async function copyClips(files: string[], clips: SampleClips): Promise<void> {
  await runPool(files, 4, (file) => writeFileAtomic(file, clips[containerOf(file)]));
}
