import { useCallback, useEffect, useRef, useState, type CSSProperties } from 'react';
import { parseThumbnailTrack, type ThumbnailCue } from './thumbnailTrack';

/** Frames a hover steps through, spread over the clip, and how long each shows. */
const FRAMES = 6;
const STEP_MS = 700;

// One fetch per track for the page's life: a card hovered again (or another card of the same item) reuses it.
const tracks = new Map<string, Promise<ThumbnailCue[]>>();

/** For tests: a fresh page. */
export function forgetSpriteTracks(): void {
  tracks.clear();
}

function loadTrack(url: string): Promise<ThumbnailCue[]> {
  let track = tracks.get(url);
  if (!track) {
    track = fetch(url, { credentials: 'same-origin' })
      .then((res) => (res.ok ? res.text() : ''))
      .then((text) => {
        const cues = parseThumbnailTrack(text, new URL(url, window.location.href).href);
        if (cues.length === 0) return [];
        const image = new Image();
        image.src = cues[0]!.image;
        // Shown once the sprite is in: a frame never flashes empty.
        const decoded = typeof image.decode === 'function' ? image.decode() : Promise.resolve();
        return decoded.then(
          () => cues,
          () => [],
        );
      })
      .catch(() => []);
    tracks.set(url, track);
  }
  return track;
}

/** `FRAMES` cues spread evenly over the track (all of them when it has fewer). */
export function framesOf(cues: readonly ThumbnailCue[]): ThumbnailCue[] {
  if (cues.length <= FRAMES) return [...cues];
  return Array.from({ length: FRAMES }, (_, i) => cues[Math.floor(((i + 0.5) * cues.length) / FRAMES)]!);
}

/** One sprite tile scaled to cover a `width` x `height` box, as a background. */
export function tileStyle(cue: ThumbnailCue, sheet: { width: number; height: number }, width: number, height: number): CSSProperties {
  const scale = Math.max(width / cue.w, height / cue.h);
  const offsetX = (width - cue.w * scale) / 2 - cue.x * scale;
  const offsetY = (height - cue.h * scale) / 2 - cue.y * scale;
  return {
    backgroundImage: `url("${cue.image}")`,
    backgroundSize: `${sheet.width * scale}px ${sheet.height * scale}px`,
    backgroundPosition: `${offsetX}px ${offsetY}px`,
  };
}

const canHover = () => typeof window.matchMedia === 'function' && window.matchMedia('(any-hover: hover)').matches;
const reducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * A video card's preview: while the pointer is over the card (or it has keyboard focus), frames of
 * the seek-bar sprite step over its picture. Nothing is fetched before the first hover; nothing
 * happens on a device that cannot hover (a touch-only phone: a tap opens the video). With reduced
 * motion one frame from the middle stands still. The box keeps its size: the frame is a background
 * over the picture, never a layout change.
 */
export function useSpritePreview(trackUrl: string | null | undefined) {
  const box = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(false);
  const [style, setStyle] = useState<CSSProperties | null>(null);

  useEffect(() => {
    if (!active || !trackUrl) return undefined;
    let cancelled = false;
    let timer: number | undefined;
    void loadTrack(trackUrl).then((cues) => {
      const element = box.current;
      if (cancelled || !element || cues.length === 0) return;
      const { width, height } = element.getBoundingClientRect();
      const sheet = {
        width: Math.max(...cues.map((c) => c.x + c.w)),
        height: Math.max(...cues.map((c) => c.y + c.h)),
      };
      const frames = reducedMotion() ? [cues[Math.floor(cues.length / 2)]!] : framesOf(cues);
      let index = 0;
      const show = () => {
        setStyle(tileStyle(frames[index % frames.length]!, sheet, width, height));
        index += 1;
      };
      show();
      if (frames.length > 1) timer = window.setInterval(show, STEP_MS);
    });
    return () => {
      cancelled = true;
      window.clearInterval(timer);
      setStyle(null);
    };
  }, [active, trackUrl]);

  const start = useCallback(() => {
    if (trackUrl && canHover()) setActive(true);
  }, [trackUrl]);
  const stop = useCallback(() => setActive(false), []);
  const onPointerEnter = useCallback(
    (event: { pointerType: string }) => {
      if (event.pointerType !== 'touch') start();
    },
    [start],
  );

  return {
    box,
    style,
    handlers: trackUrl ? { onPointerEnter, onPointerLeave: stop, onFocus: start, onBlur: stop } : {},
  };
}
