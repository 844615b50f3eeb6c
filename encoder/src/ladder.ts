import type { SourceInfo } from './probe';

export interface Size {
  width: number;
  height: number;
}

export interface Rung extends Size {
  /** `<short side>p`: 1080p, 720p, 480p, or the source's own size when it is smaller. */
  label: string;
  /** Video bits per second: the cap of a constant-quality encode (CRF with maxrate). */
  maxrate: number;
  audioBitrate: number;
}

/** The usual web ladder by short side; the top rung is the source's own size when it is below 1080. */
export const LADDER_SHORT_SIDES = [1080, 720, 480] as const;
export const TOP_SHORT_SIDE = 1080;
/** A lower rung is made only when it is clearly smaller than the one above (576 gets no 480). */
const RUNG_STEP = 0.75;

const FULL_HD_PIXELS = 1920 * 1080;
const FULL_HD_MAXRATE = 5_000_000;
const MIN_MAXRATE = 100_000;

// Nearest even number (x264 wants even sizes), never above the source's own (even) size.
const even = (n: number, max: number): number => Math.max(2, Math.min(Math.round(n / 2) * 2, Math.floor(max / 2) * 2));

/** The size with the short side `short` (never above the source's), aspect kept, even numbers. */
export function fitShortSide(source: Size, short: number): Size {
  const sourceShort = Math.min(source.width, source.height);
  const scale = Math.min(1, short / sourceShort);
  return { width: even(source.width * scale, source.width), height: even(source.height * scale, source.height) };
}

/** The size with the long side at most `long`, aspect kept, even numbers. */
export function fitLongSide(source: Size, long: number): Size {
  const scale = Math.min(1, long / Math.max(source.width, source.height));
  return { width: even(source.width * scale, source.width), height: even(source.height * scale, source.height) };
}

/**
 * Bits per second for a size: 5 Mb/s at 1080p, scaled by pixel count to the power 0.75 (bigger
 * frames need fewer bits per pixel): ~2.7 Mb/s at 720p, ~1.5 Mb/s at 480p. 40 % more above 40 fps.
 */
export function maxrateFor(size: Size, fps: number): number {
  const base = FULL_HD_MAXRATE * ((size.width * size.height) / FULL_HD_PIXELS) ** 0.75;
  const rate = base * (fps > 40 ? 1.4 : 1);
  return Math.max(MIN_MAXRATE, Math.round(rate / 1000) * 1000);
}

/** The renditions to make, largest first; never larger than the source, always one ≤ 1080p. */
export function planLadder(source: SourceInfo): Rung[] {
  const sourceShort = Math.min(source.width, source.height);
  const top = Math.min(TOP_SHORT_SIDE, sourceShort);
  const shorts = [top];
  for (const short of LADDER_SHORT_SIDES) {
    if (short <= (shorts.at(-1) ?? top) * RUNG_STEP) shorts.push(short);
  }
  return shorts.map((short) => {
    const size = fitShortSide(source, short);
    const label = `${Math.min(size.width, size.height)}p`;
    return {
      ...size,
      label,
      maxrate: maxrateFor(size, source.fps),
      audioBitrate: Math.min(size.width, size.height) >= 720 ? 128_000 : 96_000,
    };
  });
}

/** Seek-bar preview frames: at most this many, a frame every second or more (every tenth of a short clip). */
export const MAX_SPRITE_FRAMES = 200;
export const SPRITE_COLUMNS = 10;
export const SPRITE_TILE_LONG_SIDE = 160;

export function spriteInterval(duration: number): number {
  return Math.max(duration / MAX_SPRITE_FRAMES, Math.min(1, duration / 10));
}

export const POSTER_SHORT_SIDE = 720;
export const TRAILER_SHORT_SIDE = 360;
export const TRAILER_SECONDS = 6;

/** Where the trailer starts and how long it runs: from a tenth in (the start of a short clip), at most six seconds. */
export function trailerCut(duration: number): { start: number; length: number } {
  const start = duration > 30 ? duration * 0.1 : 0;
  return { start, length: Math.min(TRAILER_SECONDS, duration - start) };
}

/** The poster frame: a tenth into the video, where titles are usually over. */
export const posterTime = (duration: number): number => duration * 0.1;
