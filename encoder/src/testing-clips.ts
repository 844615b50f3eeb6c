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
  mp4: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mp4'],
  mpg: ['-c:v', 'mpeg1video', '-c:a', 'mp2', '-f', 'mpeg'],
  wmv: ['-c:v', 'wmv2', '-c:a', 'wmav2', '-f', 'asf'],
};

/** A test-pattern clip with a tone, made with ffmpeg (never committed). */
export async function makeClip(
  file: string,
  options: { container: Container; size?: string; seconds?: number; rate?: number },
): Promise<string> {
  const { container, size = '320x240', seconds = 2, rate = 25 } = options;
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
      `sine=frequency=330:duration=${seconds}`,
      ...CODECS[container],
      '-shortest',
      file,
    ],
    { timeout: 120_000 },
  );
  return file;
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
