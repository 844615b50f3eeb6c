import { execFile } from 'node:child_process';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import { videoDownloadName } from '@media-site/contracts/download-name';
import { searchText } from '@media-site/db';

const run = promisify(execFile);

export type Container = 'mp4' | 'mpg' | 'wmv';

const CODECS: Record<Container, string[]> = {
  mp4: h264Output('-f', 'mp4'),
  mpg: ['-c:v', 'mpeg1video', '-c:a', 'mp2', '-f', 'mpeg'],
  wmv: ['-c:v', 'wmv2', '-c:a', 'wmav2', '-f', 'asf'],
};

/** ffmpeg's test pattern with a tone, encoded with `output` (codecs, bit rates, filters) into `file`. */
export interface TestPattern {
  /** Output options between the two lavfi inputs and `-shortest`. */
  output: string[];
  size?: string;
  seconds?: number;
  rate?: number;
  /** The tone's pitch in Hz. */
  frequency?: number;
  /** Milliseconds before ffmpeg is killed. */
  timeout?: number;
}

/** Makes a test-pattern clip with ffmpeg (test media is generated, never committed); returns `file`. */
export async function makeTestPattern(file: string, pattern: TestPattern): Promise<string> {
  const { output, size = '320x240', seconds = 2, rate = 25, frequency = 330, timeout = 120_000 } = pattern;
  await mkdir(dirname(file), { recursive: true });
  await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-nostdin',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${size}:rate=${rate}:duration=${seconds}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${frequency}:duration=${seconds}`,
      ...output,
      '-shortest',
      file,
    ],
    { timeout },
  );
  return file;
}

/** H.264 (ultrafast) / AAC output options for `makeTestPattern`, with any extra options after them. */
export function h264Output(...extra: string[]): string[] {
  return ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', ...extra];
}

/** A test-pattern clip with a tone, made with ffmpeg (never committed). */
export async function makeClip(
  file: string,
  options: { container: Container; size?: string; seconds?: number; rate?: number },
): Promise<string> {
  const { container, ...pattern } = options;
  return makeTestPattern(file, { ...pattern, output: CODECS[container] });
}

/** A video row plus its original under MEDIA_ROOT, as ingest would leave them; returns the original's path. */
export async function placeVideo(
  knex: Knex,
  mediaRoot: string,
  path: string,
  clip: string,
  prename = `${path}_001.${clip.split('.').pop()}`,
): Promise<string> {
  await knex('videos').insert({
    path,
    updatename: `Clip ${path}`,
    modelname: 'Model A1',
    datetoupload: '2025-05-01',
    search_text: searchText(`Clip ${path}`, 'Model A1'),
    prename,
  });
  const original = join(mediaRoot, 'video', path, videoDownloadName(prename));
  await mkdir(dirname(original), { recursive: true });
  await copyFile(clip, original);
  return original;
}

export const ENCODE_SETTINGS = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe', preset: 'veryfast', threads: 1, nice: 10 };

export interface StreamInfo {
  codec_type: string;
  codec_name: string;
  profile?: string;
  width?: number;
  height?: number;
}

export async function ffprobeStreams(file: string): Promise<{ streams: StreamInfo[]; duration: number }> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_type,codec_name,profile,width,height:format=duration',
    '-of',
    'json',
    file,
  ]);
  const json = JSON.parse(stdout) as { streams: StreamInfo[]; format: { duration: string } };
  return { streams: json.streams, duration: Number(json.format.duration) };
}
