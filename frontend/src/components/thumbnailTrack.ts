/** One seek-bar preview: the sprite tile shown for times in [start, end). */
export interface ThumbnailCue {
  start: number;
  end: number;
  /** Absolute URL of the sprite image. */
  image: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

function seconds(timestamp: string): number {
  // WebVTT: [hh:]mm:ss.ttt
  const parts = timestamp.trim().split(':').map(Number);
  if (parts.some((n) => !Number.isFinite(n))) return NaN;
  return parts.reduce((total, part) => total * 60 + part, 0);
}

/**
 * Parses a WebVTT thumbnails track (cues whose text is `sprite.jpg#xywh=x,y,w,h`); each image is
 * resolved against the track's own URL. Cues that do not parse are skipped.
 */
export function parseThumbnailTrack(text: string, trackUrl: string): ThumbnailCue[] {
  const cues: ThumbnailCue[] = [];
  const blocks = text.replace(/\r\n?/g, '\n').split(/\n{2,}/);
  for (const block of blocks) {
    const lines = block.split('\n').filter((line) => line.trim() !== '');
    const timing = lines.findIndex((line) => line.includes('-->'));
    if (timing < 0 || !lines[timing + 1]) continue;
    const [from, to] = lines[timing]!.split('-->');
    const start = seconds(from ?? '');
    const end = seconds((to ?? '').trim().split(/\s+/)[0] ?? '');
    const match = /^(.*)#xywh=(\d+),(\d+),(\d+),(\d+)$/.exec(lines[timing + 1]!.trim());
    if (!match || !Number.isFinite(start) || !Number.isFinite(end)) continue;
    let image: string;
    try {
      image = new URL(match[1]!, trackUrl).href;
    } catch {
      continue;
    }
    cues.push({ start, end, image, x: Number(match[2]), y: Number(match[3]), w: Number(match[4]), h: Number(match[5]) });
  }
  return cues;
}

/** The cue showing `time` (the last one past the end, the first one before the start). */
export function cueAt(cues: readonly ThumbnailCue[], time: number): ThumbnailCue | undefined {
  if (!cues.length) return undefined;
  let low = 0;
  let high = cues.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (cues[mid]!.start <= time) low = mid;
    else high = mid - 1;
  }
  return cues[low];
}
