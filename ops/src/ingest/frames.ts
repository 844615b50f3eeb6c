import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FfmpegTools } from '@media-site/encoder';
import { FRAME_SHARES, FRAME_SUFFIXES } from './layout';
import { BucketError, type MediaStore } from './media-store';
import { exists } from './place';

const run = promisify(execFile);

/** Frames are scaled to this width (height follows the aspect ratio), like the demo's 640x360. */
const FRAME_WIDTH = 640;

export function frameNames(path: string): string[] {
  return FRAME_SUFFIXES.map((suffix) => `${path}_${suffix}.jpg`);
}

/** Seconds, as ffprobe reads the container; null when it cannot. */
export async function durationSeconds(tools: FfmpegTools, video: string): Promise<number | null> {
  try {
    const { stdout } = await run(tools.ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', video], {
      timeout: 60_000,
    });
    const seconds = Number.parseFloat(stdout.trim());
    return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
  } catch {
    return null;
  }
}

async function grab(tools: FfmpegTools, video: string, at: number, out: string): Promise<void> {
  await run(
    tools.ffmpeg,
    [
      '-v',
      'error',
      '-nostdin',
      '-y',
      '-ss',
      at.toFixed(3),
      '-i',
      video,
      '-frames:v',
      '1',
      '-vf',
      `scale='min(${FRAME_WIDTH},iw)':-2`,
      '-q:v',
      '3',
      out,
    ],
    { timeout: 120_000 },
  );
}

/**
 * The four thumbnails {path}_02/_05/_10/_15.jpg at 2, 5, 10 and 15 % of the running time; with
 * no readable duration, at 2, 5, 10 and 15 seconds, falling back to the first frame when a clip
 * is shorter than that.
 */
async function extract(
  tools: FfmpegTools,
  video: string,
  store: MediaStore,
  destKey: string,
  path: string,
  provided: ReadonlySet<string>,
): Promise<number> {
  let duration: number | null | undefined;
  let written = 0;
  for (const suffix of FRAME_SUFFIXES) {
    const name = `${path}_${suffix}.jpg`;
    const key = `${destKey}/${name}`;
    if (provided.has(name) || (await store.isFresh(key, video))) continue;
    if (duration === undefined) duration = await durationSeconds(tools, video);
    const at = duration === null ? Number(suffix) : duration * FRAME_SHARES[suffix];
    try {
      await store.write(key, video, async (tmp) => {
        await grab(tools, video, at, tmp);
        // Seeking past the end makes ffmpeg exit 0 without writing a frame.
        if (!(await exists(tmp))) await grab(tools, video, 0, tmp);
        if (!(await exists(tmp))) throw new Error('ffmpeg produced no frame');
      });
      written++;
    } catch (err) {
      // An undecodable clip is reported by the caller as missing thumbnails, not a failed ingest;
      // a bucket that refuses the upload fails the item.
      if (err instanceof BucketError) throw err;
    }
  }
  return written;
}

export interface FramesInput {
  video: string;
  path: string;
  /** Ready-made frames in the ingest folder (videothumbs/{path} or vodthumbs/{path}). */
  thumbsDir: string | null;
  providedThumbs: ReadonlySet<string>;
  /** `videothumbs/{path}` or `vodthumbs/{path}`: the media path the frames go under. */
  destKey: string;
  store: MediaStore;
  /** null when ffmpeg is not available. */
  tools: FfmpegTools | null;
}

export type FramesResult = { written: number; missing: string[] };

/** Provided frames are copied; the rest are extracted with ffmpeg when it is available. */
export async function makeFrames(input: FramesInput): Promise<FramesResult> {
  const names = frameNames(input.path);
  const provided = new Set(input.thumbsDir ? names.filter((n) => input.providedThumbs.has(n)) : []);
  let written = 0;
  for (const name of provided) {
    if ((await input.store.place(join(input.thumbsDir as string, name), `${input.destKey}/${name}`)) === 'placed') written++;
  }
  if (input.tools) written += await extract(input.tools, input.video, input.store, input.destKey, input.path, provided);
  const missing: string[] = [];
  for (const name of names) if (!(await input.store.exists(`${input.destKey}/${name}`))) missing.push(name);
  return { written, missing };
}
