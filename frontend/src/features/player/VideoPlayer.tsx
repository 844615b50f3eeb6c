import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { refreshSession } from '../../hooks/useSession';
import type { Playback, Rendition } from './api/playback';
import { listen } from './listen';
import { SeekBar } from './SeekBar';
import { formatTime } from './time';
import { usePositionSaver } from './usePositionSaver';

/** Arrow keys move this many seconds. */
export const SEEK_STEP = 5;

/** The player is at most this wide (CSS px; `.player` in styles.css). */
const PLAYER_MAX_WIDTH = 1100;

/**
 * The rendition for this screen: the smallest that is at least as tall as the player's likely
 * height in device pixels (16:9 at the viewport's width, at most 1100 CSS px), so nothing is
 * upscaled; the largest when none is. The quality menu changes it.
 */
export function pickRendition(renditions: readonly Rendition[], viewportWidth: number, pixelRatio: number): Rendition | undefined {
  const target = ((Math.min(viewportWidth, PLAYER_MAX_WIDTH) * 9) / 16) * pixelRatio;
  const tallEnough = renditions.filter((r) => r.height >= target * 0.9);
  return tallEnough[tallEnough.length - 1] ?? renditions[0];
}

/** Where to start: the stored position unless it is (nearly) the end or the very start. */
function resumePoint(playback: Playback): number {
  const position = playback.position;
  if (!position || position.completed || position.seconds < 1) return 0;
  return position.seconds;
}

function isTyping(target: EventTarget): boolean {
  return (
    target instanceof HTMLElement && (['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'A'].includes(target.tagName) || target.isContentEditable)
  );
}

/**
 * The member's player: a native `<video>` (controls, fullscreen, picture-in-picture and touch come
 * with it; progressive H.264/AAC MP4 with `+faststart` plays and seeks by Range in every browser, so
 * no player library and no HLS), plus what native controls lack: keyboard shortcuts scoped to the
 * player, a seek strip with sprite previews, resume from the server-side position, and a quality
 * menu when there is more than one rendition.
 */
export function VideoPlayer({ playback }: { playback: Playback }) {
  const video = useRef<HTMLVideoElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [rendition, setRendition] = useState(() => pickRendition(playback.renditions, window.innerWidth, window.devicePixelRatio || 1));
  const [current, setCurrent] = useState(0);
  const [duration, setDuration] = useState(playback.duration ?? 0);
  const [resumedAt, setResumedAt] = useState<number | null>(null);
  // Where to continue once the (new) source has its metadata: the stored position first, then the
  // spot a quality change or a media-cookie renewal left off at.
  const pending = useRef<{ at: number; play: boolean } | null>(
    resumePoint(playback) > 0 ? { at: resumePoint(playback), play: false } : null,
  );
  const retried = useRef(false);

  usePositionSaver(video, playback.type, playback.path, playback.duration);

  const seek = useCallback(
    (seconds: number) => {
      const v = video.current;
      if (!v) return;
      const end = Number.isFinite(v.duration) ? v.duration : (playback.duration ?? 0);
      v.currentTime = Math.min(Math.max(seconds, 0), Math.max(end - 0.05, 0));
      setCurrent(v.currentTime);
    },
    [playback.duration],
  );

  useEffect(() => {
    const v = video.current;
    if (!v) return undefined;
    const onMeta = () => {
      if (Number.isFinite(v.duration)) setDuration(v.duration);
      const next = pending.current;
      pending.current = null;
      if (next) {
        v.currentTime = Math.min(next.at, Math.max(v.duration - 0.5, 0));
        if (next.play) void v.play().catch(() => {});
        else setResumedAt(next.at);
      }
      setCurrent(v.currentTime);
    };
    const onTime = () => setCurrent(v.currentTime);
    const onPlaying = () => {
      retried.current = false;
    };
    // The media cookie lives minutes; the SPA renews it, but a tab that slept may come back to a
    // 403. Renew once and pick up where it stopped.
    const onError = () => {
      if (retried.current) return;
      retried.current = true;
      const at = v.currentTime;
      void refreshSession().then(() => {
        pending.current = { at, play: !v.paused };
        v.load();
      });
    };
    const stop = listen(v, { loadedmetadata: onMeta, timeupdate: onTime, seeking: onTime, playing: onPlaying, error: onError });
    if (v.readyState >= HTMLMediaElement.HAVE_METADATA) onMeta();
    return stop;
  }, []);

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else void frame.current?.requestFullscreen?.().catch(() => {});
  };

  // Shortcuts only while focus is in the player (not page-wide): space/k play-pause, ←/→ 5 s,
  // Home/End, f fullscreen, m mute.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const v = video.current;
    if (!v || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
    switch (event.key) {
      case ' ':
      case 'k':
      case 'K':
        if (v.paused || v.ended) void v.play().catch(() => {});
        else v.pause();
        break;
      case 'ArrowLeft':
        seek(v.currentTime - SEEK_STEP);
        break;
      case 'ArrowRight':
        seek(v.currentTime + SEEK_STEP);
        break;
      case 'Home':
        seek(0);
        break;
      case 'End':
        seek(Number.isFinite(v.duration) ? v.duration : Infinity);
        break;
      case 'f':
      case 'F':
        toggleFullscreen();
        break;
      case 'm':
      case 'M':
        v.muted = !v.muted;
        break;
      default:
        return;
    }
    // The native controls would act on the same key a second time.
    event.preventDefault();
    event.stopPropagation();
  };

  const changeQuality = (label: string) => {
    const next = playback.renditions.find((r) => r.label === label);
    const v = video.current;
    if (!next || !v || next === rendition) return;
    pending.current = { at: v.currentTime, play: !v.paused };
    setRendition(next);
  };

  if (!rendition) return null;
  return (
    <div className="player">
      {/* Keyboard shortcuts are scoped to this group (focusable, labelled), never page-wide. */}
      <div
        ref={frame}
        className="player-frame"
        role="group"
        aria-label={`Video player: ${playback.updatename}`}
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        <video
          ref={video}
          src={rendition.url}
          className="player-video"
          controls
          playsInline
          preload="metadata"
          poster={playback.poster ?? undefined}
          style={{ aspectRatio: `${rendition.width} / ${rendition.height}` }}
          aria-label={playback.updatename}
        />
        {duration > 0 ? <SeekBar duration={duration} current={current} thumbnails={playback.thumbnails} onSeek={seek} /> : null}
      </div>
      <div className="player-bar">
        {resumedAt !== null ? (
          <p className="player-resume muted">
            Resumed at {formatTime(resumedAt)}{' '}
            <button
              type="button"
              className="button"
              onClick={() => {
                seek(0);
                setResumedAt(null);
              }}
            >
              Start over
            </button>
          </p>
        ) : null}
        {playback.renditions.length > 1 ? (
          <label className="player-quality">
            Quality{' '}
            <select value={rendition.label} onChange={(event) => changeQuality(event.target.value)}>
              {playback.renditions.map((r) => (
                <option key={r.label} value={r.label}>
                  {r.label}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <p className="player-keys muted">Keys: space/k play · ←/→ 5 s · f full screen · m mute</p>
      </div>
    </div>
  );
}
