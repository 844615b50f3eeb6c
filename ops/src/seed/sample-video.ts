import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type Container = 'mp4' | 'mpg' | 'wmv';
export type SampleClips = Record<Container, Buffer>;

export const FIXTURE_CLIP = fileURLToPath(new URL('../../fixtures/sample.mp4', import.meta.url));

/** How long every sample clip runs (the committed fixture too): the demo rows' `duration`. */
export const SAMPLE_CLIP_SECONDS = 2;

// 2 s of test pattern and a tone at 160x90: tiny, but a real file every player opens.
const SOURCES = [
  '-f',
  'lavfi',
  '-i',
  `testsrc=size=160x90:rate=25:duration=${SAMPLE_CLIP_SECONDS}`,
  '-f',
  'lavfi',
  '-i',
  `sine=frequency=440:duration=${SAMPLE_CLIP_SECONDS}`,
];
const ENCODINGS: Record<Container, string[]> = {
  mp4: [
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-preset',
    'veryfast',
    '-crf',
    '30',
    '-c:a',
    'aac',
    '-b:a',
    '32k',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
  ],
  mpg: ['-c:v', 'mpeg1video', '-c:a', 'mp2', '-f', 'mpeg'],
  wmv: ['-c:v', 'wmv2', '-c:a', 'wmav2', '-f', 'asf'],
};

async function encodeWithFfmpeg(): Promise<SampleClips> {
  const dir = await mkdtemp(join(tmpdir(), 'demo-clips-'));
  try {
    const clips: Partial<SampleClips> = {};
    for (const container of Object.keys(ENCODINGS) as Container[]) {
      const out = join(dir, `sample.${container}`);
      await run('ffmpeg', ['-v', 'error', '-y', ...SOURCES, ...ENCODINGS[container], '-shortest', out], { timeout: 60_000 });
      clips[container] = await readFile(out);
    }
    return clips as SampleClips;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * One clip per container, encoded once per run with ffmpeg; without ffmpeg (or if it fails) the
 * committed MP4 fixture stands in for all three, since players sniff the content anyway.
 */
export async function loadSampleClips(
  options: { useFfmpeg?: boolean; log?: (msg: string) => void } = {},
): Promise<{ clips: SampleClips; source: 'ffmpeg' | 'fixture' }> {
  if (options.useFfmpeg !== false) {
    try {
      return { clips: await encodeWithFfmpeg(), source: 'ffmpeg' };
    } catch (err) {
      options.log?.(
        `ffmpeg unavailable (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); using the committed sample clip`,
      );
    }
  }
  const mp4 = await readFile(FIXTURE_CLIP);
  return { clips: { mp4, mpg: mp4, wmv: mp4 }, source: 'fixture' };
}

export function containerOf(fileName: string): Container {
  const ext = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
  return ext === 'mpg' || ext === 'wmv' ? ext : 'mp4';
}
