// A ≥ 300 MB browser-playable MP4 for the player benchmarks (time to first frame, seek to the middle):
// `npm run bench:big-mp4 -w tests -- [out.mp4]` (default: <tmp>/bench-player/big-1080p.mp4; reused
// when already there). Made like the encoder's renditions (H.264 High / AAC, a keyframe every 2 s,
// +faststart) but at a constant 20 Mb/s (filler data), so 130 s of test pattern weighs ~325 MB.
import { existsSync, statSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isFastStart } from '@media-site/encoder';
import { h264Output, makeTestPattern } from '@media-site/encoder/testing-clips';

/** The benches' 1080p test-pattern sources: an A4 tone, and up to 30 minutes to make one. */
export const BENCH_1080P = { size: '1920x1080', frequency: 440, timeout: 30 * 60_000 };

export const BIG_MP4_MIN_BYTES = 300 * 1024 * 1024;
const SECONDS = 130;

export async function ensureBigMp4(out = join(tmpdir(), 'bench-player', 'big-1080p.mp4')): Promise<string> {
  if (existsSync(out) && statSync(out).size >= BIG_MP4_MIN_BYTES) return out;
  const tmp = `${out}.tmp.mp4`;
  await makeTestPattern(tmp, {
    ...BENCH_1080P,
    seconds: SECONDS,
    output: h264Output(
      '-profile:v',
      'high',
      '-b:v',
      '20M',
      '-minrate',
      '20M',
      '-maxrate',
      '20M',
      '-bufsize',
      '20M',
      '-x264-params',
      'nal-hrd=cbr',
      '-force_key_frames',
      'expr:gte(t,n_forced*2)',
      '-b:a',
      '128k',
      '-movflags',
      '+faststart',
    ),
  });
  const size = statSync(tmp).size;
  if (size < BIG_MP4_MIN_BYTES) throw new Error(`made only ${size} bytes`);
  if (!(await isFastStart(tmp))) throw new Error('moov is not before mdat');
  await rename(tmp, out);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await ensureBigMp4(process.argv[2] ? resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2]) : undefined);
  console.log(`${out}: ${(statSync(out).size / 1024 / 1024).toFixed(0)} MiB, 1920x1080, ${SECONDS} s, faststart`);
}
