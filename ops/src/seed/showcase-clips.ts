import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FRAME_SHARES, FRAME_SUFFIXES } from '../ingest/layout';
import { fileExists, writeFileAtomic } from './files';
import { renderPicture, type Picture } from './image';
import { runPool } from './pool';
import { scene } from './scene';

const run = promisify(execFile);

/**
 * A 720p clip with motion and sound, made from ffmpeg's lavfi sources and generated landscapes,
 * so seeking, quality switching and the preview strip have something to show. (lavfi's
 * `gradients` was tried for colour: in ffmpeg 5.1 it is mostly one flat colour per frame.)
 */
interface Recipe {
  name: string;
  seconds: number;
  /** ffmpeg's inputs and filters; `{panorama}` stands for the recipe's picture, drawn first. */
  args: string[];
  panorama?: Picture;
}

const FPS = 25;
const SIZE = { width: 1280, height: 720 };

// A quiet A-major pad whose loudness swells every 4 s.
const PAD = '0.05*(sin(2*PI*220*t)+0.8*sin(2*PI*277.18*t)+0.6*sin(2*PI*329.63*t))*(0.7+0.3*sin(2*PI*t/4))';
// A plucked four-note figure, one note every half second, each fading before the next.
const PLUCKS = '0.12*sin(2*PI*t*261.63*pow(2,floor(mod(t*2,4))*3/12))*exp(-4*mod(t,0.5))';

/** An input from one of ffmpeg's lavfi sources. */
const lavfi = (source: string): string[] => ['-f', 'lavfi', '-i', source];

/** The panorama (input 0) as `[v]`: a still looped into frames, cropped to the clip's size at `x` (an expression of t). */
const pan = (seconds: number, x: string): string =>
  `[0:v]loop=loop=-1:size=1:start=0,fps=${FPS},crop=${SIZE.width}:${SIZE.height}:x='${x}':y=0,trim=duration=${seconds}[v]`;

const RECIPES: readonly Recipe[] = [
  {
    name: 'peaks',
    seconds: 40,
    // A pan from right to left across a generated range in daylight, over a quiet chord.
    panorama: { width: SIZE.width * 2.5, height: SIZE.height, key: 'showcase-peaks', view: 1 },
    args: [
      '-i',
      '{panorama}',
      ...lavfi(`aevalsrc='${PAD}':s=44100:d=40`),
      '-filter_complex',
      pan(40, '(iw-ow)*(1-t/40)'),
      '-map',
      '[v]',
      '-map',
      '1:a',
    ],
  },
  {
    name: 'valley',
    seconds: 48,
    // A slow pan across one wide generated landscape, over wind (brown noise) and a low tone.
    panorama: { width: SIZE.width * 2.5, height: SIZE.height, key: 'showcase-valley', view: 1 },
    args: [
      '-i',
      '{panorama}',
      ...lavfi('anoisesrc=c=brown:a=0.06:seed=1:d=48'),
      ...lavfi('sine=f=110:d=48,volume=0.08'),
      '-filter_complex',
      `${pan(48, '(iw-ow)*t/48')};[1:a][2:a]amix=inputs=2[a]`,
      '-map',
      '[v]',
      '-map',
      '[a]',
    ],
  },
  {
    name: 'test-card',
    seconds: 32,
    // Fine lines and moving shapes: where quality switching shows most.
    args: [...lavfi(`testsrc2=s=${SIZE.width}x${SIZE.height}:r=${FPS}:d=32`), ...lavfi(`aevalsrc='${PLUCKS}':s=44100:d=32`)],
  },
];

const OUTPUT = [
  '-c:v',
  'libx264',
  '-preset',
  'ultrafast',
  '-crf',
  '26',
  // The test card's fine lines would take 5 Mb/s; the ladder's top rung is 2.7 Mb/s at 720p anyway.
  '-maxrate',
  '3M',
  '-bufsize',
  '6M',
  '-pix_fmt',
  'yuv420p',
  '-c:a',
  'aac',
  '-b:a',
  '96k',
  '-movflags',
  '+faststart',
];

export interface ShowcaseClip {
  name: string;
  seconds: number;
  /** The MP4 in the cache. */
  file: string;
  /** The four frame thumbnails (_02, _05, _10, _15) in the cache, 640x360. */
  frames: Record<(typeof FRAME_SUFFIXES)[number], string>;
}

/** Bump when image.ts changes how a picture's pixels are finished (the panorama's SVG is hashed already). */
const PICTURE_VERSION = 1;

/**
 * Where the clips are kept between runs: a folder named for what makes them (the recipes, the
 * panorama's drawing, the output options), so a new recipe makes new clips and a fresh data
 * folder reuses old ones.
 */
export function showcaseCacheDir(root = tmpdir()): string {
  const hash = createHash('sha256').update(JSON.stringify({ OUTPUT, PICTURE_VERSION }));
  for (const recipe of RECIPES) hash.update(JSON.stringify(recipe)).update(recipe.panorama ? scene(recipe.panorama).svg : '');
  return join(root, `media-site-demo-clips-${hash.digest('hex').slice(0, 12)}`);
}

async function makeClip(recipe: Recipe, dir: string): Promise<ShowcaseClip> {
  const file = join(dir, `${recipe.name}.mp4`);
  const frames = Object.fromEntries(FRAME_SUFFIXES.map((s) => [s, join(dir, `${recipe.name}_${s}.jpg`)])) as ShowcaseClip['frames'];
  const done = await Promise.all([file, ...Object.values(frames)].map(fileExists));
  if (done.every(Boolean)) return { name: recipe.name, seconds: recipe.seconds, file, frames };

  const work = join(dir, `work-${recipe.name}-${process.pid}`);
  await mkdir(work, { recursive: true });
  try {
    const out = join(work, 'clip.mp4');
    const panorama = join(work, 'panorama.jpg');
    if (recipe.panorama) await writeFile(panorama, await renderPicture(recipe.panorama));
    const inputs = recipe.args.map((arg) => (arg === '{panorama}' ? panorama : arg));
    const args = ['-v', 'error', '-nostdin', '-y', ...inputs, ...OUTPUT, '-t', String(recipe.seconds), out];
    await run('ffmpeg', args, { timeout: 180_000 });
    for (const suffix of FRAME_SUFFIXES) {
      const frame = join(work, `${suffix}.jpg`);
      const at = (recipe.seconds * FRAME_SHARES[suffix]).toFixed(2);
      await run(
        'ffmpeg',
        ['-v', 'error', '-nostdin', '-y', '-ss', at, '-i', out, '-frames:v', '1', '-vf', 'scale=640:360', '-q:v', '3', frame],
        {
          timeout: 60_000,
        },
      );
      await writeFileAtomic(frames[suffix], await readFile(frame));
    }
    // The clip last: its presence says the frames are there too.
    await writeFileAtomic(file, await readFile(out));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return { name: recipe.name, seconds: recipe.seconds, file, frames };
}

/** The showcase clips, made once per machine and recipe version (two at a time: one per core here). */
export async function showcaseClips(cacheDir = showcaseCacheDir()): Promise<ShowcaseClip[]> {
  await mkdir(cacheDir, { recursive: true });
  const clips = new Map<string, ShowcaseClip>();
  await runPool(RECIPES, 2, async (recipe) => {
    clips.set(recipe.name, await makeClip(recipe, cacheDir));
  });
  return RECIPES.map((r) => clips.get(r.name)).filter((c): c is ShowcaseClip => c !== undefined);
}
