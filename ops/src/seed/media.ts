import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { videoDownloadName, vodDownloadName } from '@media-site/contracts/download-name';
import { buildDemoCatalog, type DemoCatalog } from './catalog';
import { fileExists, writeFileAtomic } from './files';
import { renderPlaceholder, resizeJpeg, type Placeholder } from './image';
import { runPool } from './pool';
import { containerOf, loadSampleClips, type SampleClips } from './sample-video';

export const FULL_SIZE = { width: 1600, height: 1067 } as const;
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
  log?: (msg: string) => void;
}

export interface MediaTreeSummary {
  written: number;
  skipped: number;
  clips: 'ffmpeg' | 'fixture' | 'not needed';
}

/** One or more files made together (a full photo and its thumbnail share one render). */
interface ImageJob {
  files: string[];
  make: () => Promise<Buffer[]>;
}

function single(file: string, p: Placeholder): ImageJob {
  return { files: [file], make: async () => [await renderPlaceholder(p)] };
}

function photoJobs(root: string, catalog: DemoCatalog): ImageJob[] {
  const jobs: ImageJob[] = [];
  for (const set of catalog.photosets) {
    jobs.push(
      single(join(root, 'photosthumbs', set.path, 'large.jpg'), {
        ...COVER_SIZE,
        colourKey: set.path,
        title: set.updatename,
        subtitle: set.modelname,
      }),
    );
    set.files.forEach((image, i) => {
      const full: Placeholder = {
        ...FULL_SIZE,
        colourKey: set.path,
        shade: i + 1,
        title: set.updatename,
        subtitle: `${set.modelname} · ${i + 1} / ${set.files.length}`,
      };
      jobs.push({
        files: [join(root, 'photos', set.path, image), join(root, 'photosthumbs', set.path, image)],
        make: async () => {
          const big = await renderPlaceholder(full);
          return [big, await resizeJpeg(big, THUMB_SIZE.width, THUMB_SIZE.height)];
        },
      });
    });
  }
  for (const set of catalog.freephotosets) {
    set.files.forEach((image, i) => {
      jobs.push(
        single(join(root, 'freephotos', set.path, image), {
          ...FULL_SIZE,
          colourKey: set.path,
          shade: i + 1,
          title: set.updatename,
          subtitle: `Free preview · ${i + 1} / ${set.files.length}`,
        }),
      );
    });
  }
  return jobs;
}

function frameJobs(root: string, dir: 'videothumbs' | 'vodthumbs', rows: DemoCatalog['videos'] | DemoCatalog['vods']): ImageJob[] {
  return rows.flatMap((row) =>
    FRAME_SUFFIXES.map((suffix, i) =>
      single(join(root, dir, row.path, `${row.path}_${suffix}.jpg`), {
        ...FRAME_SIZE,
        colourKey: row.path,
        shade: i * 3,
        title: row.updatename,
        subtitle: `${row.modelname} · 0:${suffix}`,
      }),
    ),
  );
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
  const summary: MediaTreeSummary = { written: 0, skipped: 0, clips: 'not needed' };

  const jobs = [
    ...photoJobs(root, catalog),
    ...frameJobs(root, 'videothumbs', catalog.videos),
    ...frameJobs(root, 'vodthumbs', catalog.vods),
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
      await writeFileAtomic(file, data);
      summary.written++;
    }
  });

  const clipsNeeded: string[] = [];
  for (const file of videoFiles(root, catalog)) {
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

async function copyClips(files: string[], clips: SampleClips): Promise<void> {
  await runPool(files, 4, (file) => writeFileAtomic(file, clips[containerOf(file)]));
}
