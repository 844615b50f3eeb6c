import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { cueAt, parseThumbnailTrack, type ThumbnailCue } from '../../components/thumbnailTrack';
import { formatTime } from '../../config/time';

/** Loads the WebVTT thumbnails track once (public, cacheable a day) and warms the sprite. */
function useThumbnailCues(trackUrl: string | null): ThumbnailCue[] {
  const [cues, setCues] = useState<{ url: string; cues: ThumbnailCue[] } | null>(null);
  useEffect(() => {
    if (!trackUrl) return undefined;
    const controller = new AbortController();
    const absolute = new URL(trackUrl, window.location.href).href;
    fetch(absolute, { signal: controller.signal })
      .then((response) => (response.ok ? response.text() : ''))
      .then((text) => {
        const parsed = parseThumbnailTrack(text, absolute);
        // One sprite for the whole video: fetch it before the first hover needs it.
        for (const image of new Set(parsed.map((cue) => cue.image))) new Image().src = image;
        setCues({ url: trackUrl, cues: parsed });
      })
      .catch(() => {
        // No previews: the seek bar still seeks and shows the time.
      });
    return () => controller.abort();
  }, [trackUrl]);
  return cues && cues.url === trackUrl ? cues.cues : [];
}

interface SeekBarProps {
  duration: number;
  current: number;
  thumbnails: string | null;
  onSeek: (seconds: number) => void;
}

/**
 * The control bar's seek strip (the only one: the video has no native controls): hovering or
 * dragging shows the frame at that time (sprite tile from the thumbnails track) and the time; a
 * click or drag seeks. Pointer events, so a finger on a phone scrubs the same way. Focused, it
 * takes Home/End; ←/→ are the page-wide shortcuts.
 */
export function SeekBar({ duration, current, thumbnails, onSeek }: SeekBarProps) {
  const cues = useThumbnailCues(thumbnails);
  const track = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<{ time: number; x: number; width: number } | null>(null);
  const dragging = useRef(false);

  const at = (event: ReactPointerEvent<HTMLDivElement>) => {
    // Times are measured along the visible track (the strip around it is padding for fingers).
    const rect = track.current!.getBoundingClientRect();
    const x = Math.min(Math.max(event.clientX - rect.left, 0), rect.width);
    return { x, width: rect.width, time: rect.width > 0 ? (x / rect.width) * duration : 0 };
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const point = at(event);
    setHover(point);
    if (dragging.current) onSeek(point.time);
  };
  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    dragging.current = true;
    event.currentTarget.setPointerCapture(event.pointerId);
    const point = at(event);
    setHover(point);
    onSeek(point.time);
  };
  const onPointerUp = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!dragging.current) return;
    dragging.current = false;
    event.currentTarget.releasePointerCapture(event.pointerId);
    if (event.pointerType !== 'mouse') setHover(null);
  };
  const onPointerLeave = () => {
    if (!dragging.current) setHover(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    onSeek(event.key === 'Home' ? 0 : duration);
  };

  const cue = hover ? cueAt(cues, hover.time) : undefined;
  const tileWidth = cue?.w ?? 60;
  // The preview is placed in the strip, whose padding is 8px on each side (styles.css).
  const left = hover ? Math.min(Math.max(hover.x + 8 - tileWidth / 2, 0), Math.max(hover.width + 16 - tileWidth, 0)) : 0;
  const share = duration > 0 ? Math.min(current / duration, 1) : 0;

  return (
    <div
      className="player-seekbar"
      role="slider"
      // Focusable: ←/→ seek (page-wide shortcuts), Home/End here.
      tabIndex={0}
      aria-label="Seek"
      aria-valuemin={0}
      aria-valuemax={Math.round(duration)}
      aria-valuenow={Math.round(current)}
      aria-valuetext={`${formatTime(current)} of ${formatTime(duration)}`}
      onPointerMove={onPointerMove}
      onPointerDown={onPointerDown}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onPointerLeave={onPointerLeave}
      onKeyDown={onKeyDown}
    >
      <div ref={track} className="player-seekbar-track">
        <div className="player-seekbar-fill" style={{ width: `${share * 100}%` }} />
        {hover ? <div className="player-seekbar-hover" style={{ left: hover.x - 1 }} /> : null}
      </div>
      {hover ? (
        <div className="player-preview" style={{ left }} aria-hidden="true">
          {cue ? (
            <div
              className="player-preview-frame"
              style={{ width: cue.w, height: cue.h, backgroundImage: `url("${cue.image}")`, backgroundPosition: `-${cue.x}px -${cue.y}px` }}
            />
          ) : null}
          <span className="player-preview-time">{formatTime(hover.time)}</span>
        </div>
      ) : null}
    </div>
  );
}
