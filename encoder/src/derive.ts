import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  PREVIEW_FAMILIES,
  PREVIEW_FILES,
  RENDITION_FAMILIES,
  renditionFile,
  type PlayableType,
} from '@media-site/contracts/playback-layout';
import { runFfmpeg, runTool, type FfmpegRun } from './ffmpeg-run';
import {
  fitLongSide,
  fitShortSide,
  planLadder,
  POSTER_SHORT_SIDE,
  posterTime,
  SPRITE_TILE_LONG_SIDE,
  spriteInterval,
  MAX_SPRITE_FRAMES,
  TRAILER_SHORT_SIDE,
  trailerCut,
  type Rung,
  type Size,
} from './ladder';
import type { Manifest, Rendition } from '@media-site/db/encode';
import { isFastStart } from './mp4-boxes';
import { probeSource, type SourceInfo } from './probe';
import { composeSprite, spriteLayout, thumbnailsVtt } from './sprite';

/** Work in progress lives under MEDIA_ROOT/.partial/: same filesystem (renames are atomic), and never served (dot segments are refused). */
export const PARTIAL_DIR = '.partial';

export interface EncodeSettings {
  ffmpeg: string;
  ffprobe: string;
  /** x264 preset: veryfast by default (the best quality per CPU second for a 2-core box). */
  preset: string;
  /** Encoder threads per ffmpeg (0 = ffmpeg decides). */
  threads: number;
  nice: number;
}

export interface DeriveInput {
  jobId: number;
  /** Unique per attempt: names the attempt's partial folder. */
  attempt: string;
  type: PlayableType;
  path: string;
  original: string;
  sourceSig: string;
  mediaRoot: string;
  settings: EncodeSettings;
  signal?: AbortSignal;
  onProgress?: (share: number) => void;
  /** Asked just before the outputs are moved into place: false stops (another worker has the job). */
  stillMine?: () => Promise<boolean>;
}

export class ClaimLost extends Error {
  constructor() {
    super('the job was given to another worker');
  }
}

export class BadOutput extends Error {}

const GOP_SECONDS = 2;
const CRF = 23;
const TRAILER = { crf: 28, maxrate: 700_000, audioBitrate: 64_000 };

function h264Args(settings: EncodeSettings, crf: number, maxrate: number): string[] {
  return [
    '-c:v',
    'libx264',
    '-preset',
    settings.preset,
    '-profile:v',
    'high',
    '-pix_fmt',
    'yuv420p',
    '-crf',
    String(crf),
    '-maxrate',
    String(maxrate),
    '-bufsize',
    String(maxrate * 2),
    // A keyframe every 2 s: a seek decodes at most 2 s of frames.
    '-force_key_frames',
    `expr:gte(t,n_forced*${GOP_SECONDS})`,
    '-threads',
    String(settings.threads),
  ];
}

const aacArgs = (bitrate: number) => ['-c:a', 'aac', '-b:a', String(bitrate), '-ac', '2'];
const mp4Args = (file: string) => ['-movflags', '+faststart', '-map_metadata', '-1', '-max_muxing_queue_size', '4096', '-f', 'mp4', file];

function sourceFilters(source: SourceInfo): string {
  return (source.interlaced ? 'yadif=deint=interlaced,' : '') + (source.fps > 60 ? 'fps=60,' : '');
}

/** One decode for the whole ladder and the seek-bar frames: `split` feeds every scaler. */
export function ladderArgs(
  input: string,
  source: SourceInfo,
  rungs: Rung[],
  sprite: { interval: number; tile: Size; pattern: string },
  settings: EncodeSettings,
  out: (rung: Rung) => string,
): string[] {
  const labels = rungs.map((_, i) => `[s${i}]`).join('') + '[sp]';
  const chains = [`[0:v:0]${sourceFilters(source)}split=${rungs.length + 1}${labels}`];
  rungs.forEach((rung, i) => chains.push(`[s${i}]scale=${rung.width}:${rung.height}:flags=bicubic,setsar=1,format=yuv420p[v${i}]`));
  chains.push(`[sp]fps=${(1 / sprite.interval).toFixed(6)},scale=${sprite.tile.width}:${sprite.tile.height},setsar=1[spo]`);
  const args = ['-i', input, '-filter_complex', chains.join(';')];
  rungs.forEach((rung, i) => {
    args.push(
      '-map',
      `[v${i}]`,
      '-map',
      '0:a:0?',
      ...h264Args(settings, CRF, rung.maxrate),
      ...aacArgs(rung.audioBitrate),
      ...mp4Args(out(rung)),
    );
  });
  args.push(
    '-map',
    '[spo]',
    '-vsync',
    'passthrough',
    '-frames:v',
    String(MAX_SPRITE_FRAMES + 1),
    '-q:v',
    '3',
    '-f',
    'image2',
    sprite.pattern,
  );
  return args;
}

export function posterArgs(input: string, source: SourceInfo, at: number, size: Size, out: string): string[] {
  return [
    '-ss',
    at.toFixed(3),
    '-i',
    input,
    '-map',
    '0:v:0',
    '-frames:v',
    '1',
    '-vf',
    `${sourceFilters(source)}scale=${size.width}:${size.height},setsar=1`,
    '-q:v',
    '3',
    '-f',
    'image2',
    '-update',
    '1',
    out,
  ];
}

export function trailerArgs(
  input: string,
  source: SourceInfo,
  cut: { start: number; length: number },
  size: Size,
  settings: EncodeSettings,
  out: string,
): string[] {
  const fades = cut.length >= 2;
  const fadeOut = (cut.length - 0.5).toFixed(3);
  const video = `${sourceFilters(source)}scale=${size.width}:${size.height},setsar=1,format=yuv420p${fades ? `,fade=t=in:st=0:d=0.5,fade=t=out:st=${fadeOut}:d=0.5` : ''}`;
  const args = ['-ss', cut.start.toFixed(3), '-t', cut.length.toFixed(3), '-i', input, '-map', '0:v:0', '-map', '0:a:0?', '-vf', video];
  if (source.hasAudio && fades) args.push('-af', `afade=t=in:st=0:d=0.5,afade=t=out:st=${fadeOut}:d=0.5`);
  return [...args, ...h264Args(settings, TRAILER.crf, TRAILER.maxrate), ...aacArgs(TRAILER.audioBitrate), ...mp4Args(out)];
}

interface Probed {
  width: number;
  height: number;
  duration: number;
  bitrate: number;
  mime: string;
}

/** Checks what ffmpeg made before anyone is sent to it: H.264 High, AAC when the source has sound, moov first. */
async function checkMp4(settings: EncodeSettings, file: string, expectAudio: boolean): Promise<Probed> {
  const { stdout } = await runTool(
    settings.ffprobe,
    [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_type,codec_name,profile,level,width,height:format=duration,bit_rate',
      '-of',
      'json',
      file,
    ],
    { timeout: 60_000 },
  );
  const info = JSON.parse(stdout) as { streams?: Record<string, unknown>[]; format?: Record<string, unknown> };
  const video = info.streams?.find((s) => s.codec_type === 'video');
  const audio = info.streams?.find((s) => s.codec_type === 'audio');
  if (video?.codec_name !== 'h264' || video.profile !== 'High') throw new BadOutput(`${file}: not H.264 High`);
  if (expectAudio && audio?.codec_name !== 'aac') throw new BadOutput(`${file}: no AAC audio`);
  if (!(await isFastStart(file))) throw new BadOutput(`${file}: moov is not before mdat`);
  const level = Number(video.level);
  const codecs = [
    `avc1.6400${(Number.isFinite(level) && level > 0 ? level : 40).toString(16).padStart(2, '0')}`,
    ...(audio ? ['mp4a.40.2'] : []),
  ];
  return {
    width: Number(video.width),
    height: Number(video.height),
    duration: Number(info.format?.duration),
    bitrate: Math.round(Number(info.format?.bit_rate) || 0),
    mime: `video/mp4; codecs="${codecs.join(', ')}"`,
  };
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile() && s.size > 0,
    () => false,
  );
}

/** Removes partial folders earlier attempts at this job left behind (a crash skips their cleanup). */
async function clearEarlierAttempts(mediaRoot: string, jobId: number): Promise<void> {
  const base = join(mediaRoot, PARTIAL_DIR);
  const names = await readdir(base).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => n.startsWith(`job-${jobId}-`)).map((n) => rm(join(base, n), { recursive: true, force: true })));
}

/**
 * Makes every playable file for one video or VOD: the rendition ladder, the poster, the sprite and
 * its WebVTT track, the trailer. Everything is written in a partial folder, checked, and only then
 * renamed into place, so a reader never sees half a file and a killed attempt leaves nothing served.
 */
export async function deriveItem(input: DeriveInput): Promise<Manifest> {
  const { settings, mediaRoot } = input;
  await clearEarlierAttempts(mediaRoot, input.jobId);
  const work = join(mediaRoot, PARTIAL_DIR, `job-${input.jobId}-${input.attempt}`);
  await mkdir(work, { recursive: true });
  const progress = (share: number) => input.onProgress?.(share);
  const ffmpeg = (args: string[], extra: Partial<FfmpegRun> = {}) =>
    runFfmpeg({ ffmpeg: settings.ffmpeg, nice: settings.nice, args, signal: input.signal, ...extra });
  try {
    const source = await probeSource(settings.ffprobe, input.original);
    const rungs = planLadder(source);
    const interval = spriteInterval(source.duration);
    const tile = fitLongSide(source, SPRITE_TILE_LONG_SIDE);
    const pattern = join(work, 'frame-%04d.jpg');
    await ffmpeg(
      ladderArgs(input.original, source, rungs, { interval, tile, pattern }, settings, (r) => join(work, renditionFile(r.label))),
      {
        duration: source.duration,
        onProgress: (share) => progress(share * 0.85),
      },
    );

    const posterSize = fitShortSide(source, POSTER_SHORT_SIDE);
    const poster = join(work, PREVIEW_FILES.poster);
    await ffmpeg(posterArgs(input.original, source, posterTime(source.duration), posterSize, poster));
    // Seeking past the last frame makes ffmpeg exit 0 without one.
    if (!(await exists(poster))) await ffmpeg(posterArgs(input.original, source, 0, posterSize, poster));
    if (!(await exists(poster))) throw new BadOutput('ffmpeg made no poster frame');
    progress(0.88);

    const cut = trailerCut(source.duration);
    const trailerSize = fitShortSide(source, TRAILER_SHORT_SIDE);
    const trailer = join(work, PREVIEW_FILES.trailer);
    await ffmpeg(trailerArgs(input.original, source, cut, trailerSize, settings, trailer), {
      duration: cut.length,
      onProgress: (share) => progress(0.88 + share * 0.08),
    });

    const frames = (await readdir(work))
      .filter((n) => /^frame-\d{4}\.jpg$/.test(n))
      .sort()
      .slice(0, MAX_SPRITE_FRAMES);
    if (!frames.length) throw new BadOutput('ffmpeg made no seek-bar frames');
    const layout = spriteLayout(tile, frames.length);
    const spriteSize = await composeSprite(
      frames.map((f) => join(work, f)),
      layout,
      join(work, PREVIEW_FILES.sprite),
    );

    const renditions: Rendition[] = [];
    let duration = 0;
    for (const rung of rungs) {
      const file = renditionFile(rung.label);
      const checked = await checkMp4(settings, join(work, file), source.hasAudio);
      duration ||= checked.duration;
      renditions.push({
        label: rung.label,
        file,
        width: checked.width,
        height: checked.height,
        bitrate: checked.bitrate,
        bytes: (await stat(join(work, file))).size,
        mime: checked.mime,
      });
    }
    duration ||= source.duration;
    await writeFile(join(work, PREVIEW_FILES.thumbnails), thumbnailsVtt(layout, interval, duration, PREVIEW_FILES.sprite));
    const trailerInfo = await checkMp4(settings, trailer, source.hasAudio);
    const trailerBytes = (await stat(trailer)).size;
    progress(0.99);

    if (input.stillMine && !(await input.stillMine())) throw new ClaimLost();
    await publish(
      input,
      work,
      renditions.map((r) => r.file),
    );
    return {
      version: 1,
      duration,
      source: {
        sig: input.sourceSig,
        width: source.width,
        height: source.height,
        hasAudio: source.hasAudio,
        bytes: (await stat(input.original)).size,
      },
      renditions,
      poster: { file: PREVIEW_FILES.poster, ...posterSize },
      sprite: { file: PREVIEW_FILES.sprite, ...spriteSize, frames: frames.length, interval },
      thumbnails: { file: PREVIEW_FILES.thumbnails },
      trailer: {
        file: PREVIEW_FILES.trailer,
        width: trailerInfo.width,
        height: trailerInfo.height,
        duration: trailerInfo.duration || cut.length,
        bytes: trailerBytes,
      },
      encodedAt: Date.now(),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Renames the checked files into their families. Renditions an earlier, larger source had stay until
 * the new manifest is recorded (staleRenditions): a reader of the old one still finds its files.
 */
async function publish(input: DeriveInput, work: string, renditionFiles: string[]): Promise<void> {
  const renditionDir = join(input.mediaRoot, RENDITION_FAMILIES[input.type], input.path);
  const previewDir = join(input.mediaRoot, PREVIEW_FAMILIES[input.type], input.path);
  await mkdir(renditionDir, { recursive: true });
  await mkdir(previewDir, { recursive: true });
  for (const file of renditionFiles) await rename(join(work, file), join(renditionDir, file));
  for (const file of Object.values(PREVIEW_FILES)) await rename(join(work, file), join(previewDir, file));
}

/** Rendition file names (`{label}.mp4`) among `names` that `manifest` does not name. */
export function staleRenditions(names: readonly string[], manifest: Manifest): string[] {
  const keep = new Set(manifest.renditions.map((r) => r.file));
  return names.filter((name) => /^\d+p\.mp4$/.test(name) && !keep.has(name));
}

/** Removes the item's renditions under MEDIA_ROOT that its recorded manifest no longer names. */
export async function dropStaleLocalRenditions(mediaRoot: string, type: PlayableType, path: string, manifest: Manifest): Promise<void> {
  const renditionDir = join(mediaRoot, RENDITION_FAMILIES[type], path);
  const names = await readdir(renditionDir).catch(() => []);
  for (const name of staleRenditions(names, manifest)) await rm(join(renditionDir, name), { force: true });
}
