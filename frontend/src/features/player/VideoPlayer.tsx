import { useCallback, useEffect, useRef, useState, type CSSProperties, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import { refreshSession } from '../../hooks/useSession';
import type { Playback, Rendition } from './api/playback';
import { BarButton } from './BarButton';
import { listen } from './listen';
import { classifyPlaybackError } from './playbackError';
import { preferredRendition, rememberQualityHeight, savedQualityHeight } from './quality';
import { QualityMenu } from './QualityMenu';
import { SeekBar } from './SeekBar';
import { listenForShortcuts, type ShortcutAction } from './shortcuts';
import { formatTime } from '../../config/time';
import { usePlayCount } from './usePlayCount';
import { usePositionSaver } from './usePositionSaver';
import { useQualityReport } from './useQualityReport';

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

/** The first rendition: the member's remembered quality (or the nearest lower), else the automatic pick. */
function firstRendition(renditions: readonly Rendition[]): Rendition | undefined {
  return preferredRendition(renditions, savedQualityHeight(), pickRendition(renditions, window.innerWidth, window.devicePixelRatio || 1));
}

/** Where to start: the stored position unless it is (nearly) the end or the very start. */
function resumePoint(playback: Playback): number {
  const position = playback.position;
  if (!position || position.completed || position.seconds < 1) return 0;
  return position.seconds;
}

const LISTING = { video: '/videos', vod: '/vod' } as const;

/** The media element's own state, mirrored for the control bar. */
function useMediaState(video: RefObject<HTMLVideoElement | null>, frame: RefObject<HTMLDivElement | null>) {
  const [state, setState] = useState({ paused: true, muted: false, volume: 1, fullscreen: false, pip: false });
  useEffect(() => {
    const v = video.current;
    if (!v) return undefined;
    const update = () =>
      setState({
        paused: v.paused,
        muted: v.muted,
        volume: v.volume,
        fullscreen: !!frame.current && document.fullscreenElement === frame.current,
        pip: !!document.pictureInPictureElement && document.pictureInPictureElement === v,
      });
    update();
    const stopVideo = listen(v, {
      play: update,
      pause: update,
      ended: update,
      volumechange: update,
      enterpictureinpicture: update,
      leavepictureinpicture: update,
    });
    const stopDocument = listen(document, { fullscreenchange: update });
    return () => {
      stopVideo();
      stopDocument();
    };
  }, [video, frame]);
  return state;
}

/**
 * The member's player: a `<video>` without native controls (progressive H.264/AAC MP4 with
 * `+faststart` plays and seeks by Range in every browser, so no player library and no HLS) and one
 * control bar of our own: play/pause, the seek strip with sprite previews, time, mute and volume,
 * the quality menu (remembered across videos), picture-in-picture and full screen (of the frame,
 * so the bar comes along). Shortcuts are page-wide while it is mounted (shortcuts.ts). Resumes from
 * the server-side position; says so when the item was taken down mid-play. Reports how playback
 * went (first frame, stalls, quality changes, errors) for the site's metrics (useQualityReport.ts),
 * and a play and a finish for the console's Stats (usePlayCount.ts).
 */
/** `onGone`: the item was taken down while it played (the page hides what no longer works: downloads, frames). */
export function VideoPlayer({ playback, onGone }: { playback: Playback; onGone?: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [rendition, setRendition] = useState(() => firstRendition(playback.renditions));
  const [current, setCurrent] = useState(0);
  const [duration, setDuration] = useState(playback.duration ?? 0);
  const [resumedAt, setResumedAt] = useState<number | null>(null);
  const [failure, setFailure] = useState<'gone' | 'failed' | null>(null);
  // Where to continue once the (new) source has its metadata: the stored position first, then the
  // spot a quality change, a media-cookie renewal or a retry left off at.
  const pending = useRef<{ at: number; play: boolean } | null>(
    resumePoint(playback) > 0 ? { at: resumePoint(playback), play: false } : null,
  );
  const retried = useRef(false);
  const media = useMediaState(video, frame);

  usePositionSaver(video, playback.type, playback.path, playback.duration);
  usePlayCount(video, playback.type, playback.path, playback.duration);
  useQualityReport(video, rendition ? Math.min(rendition.width, rendition.height) : undefined);

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

  /** Loads the source again and continues at the same spot (after a renewal or a Retry). */
  const reload = useCallback((at: number, play: boolean) => {
    const v = video.current;
    if (!v) return;
    pending.current = { at, play };
    v.load();
  }, []);

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
    // Ask the server why: taken down (410/404) stops with a message; an expired media cookie (a
    // tab that slept) is renewed once and playback continues where it stopped; anything else
    // offers Retry.
    const onError = () => {
      const src = v.currentSrc || v.getAttribute('src');
      if (!src) return;
      const spot = { at: pending.current?.at ?? v.currentTime, play: pending.current?.play ?? !v.paused };
      void classifyPlaybackError(src).then((why) => {
        if (why === 'gone') {
          v.pause();
          setFailure('gone');
        } else if (why === 'denied' && !retried.current) {
          retried.current = true;
          void refreshSession().then(() => reload(spot.at, spot.play));
        } else {
          pending.current = spot;
          setFailure('failed');
        }
      });
    };
    const stop = listen(v, { loadedmetadata: onMeta, timeupdate: onTime, seeking: onTime, playing: onPlaying, error: onError });
    if (v.readyState >= HTMLMediaElement.HAVE_METADATA) onMeta();
    return stop;
  }, [reload]);

  const togglePlay = useCallback(() => {
    const v = video.current;
    if (!v) return;
    if (v.paused || v.ended) void v.play().catch(() => {});
    else v.pause();
  }, []);

  const toggleFullscreen = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else if (frame.current?.requestFullscreen) void frame.current.requestFullscreen().catch(() => {});
    // iPhone Safari has full screen for the video element only (its own controls come with it).
    else (video.current as (HTMLVideoElement & { webkitEnterFullscreen?: () => void }) | null)?.webkitEnterFullscreen?.();
  }, []);

  const toggleMute = useCallback(() => {
    const v = video.current;
    if (v) v.muted = !v.muted;
  }, []);

  // Page-wide while this player is mounted and playable (not while typing; see shortcuts.ts).
  const gone = failure === 'gone';
  // The page hides what went with the item (setting the same state again changes nothing).
  useEffect(() => {
    if (gone) onGone?.();
  }, [gone, onGone]);
  useEffect(() => {
    if (gone) return undefined;
    const actions: Record<ShortcutAction, () => void> = {
      toggle: togglePlay,
      back: () => seek((video.current?.currentTime ?? 0) - SEEK_STEP),
      forward: () => seek((video.current?.currentTime ?? 0) + SEEK_STEP),
      fullscreen: toggleFullscreen,
      mute: toggleMute,
    };
    return listenForShortcuts(document, (action) => actions[action]());
  }, [gone, togglePlay, seek, toggleFullscreen, toggleMute]);

  const togglePip = () => {
    const v = video.current;
    if (!v) return;
    if (document.pictureInPictureElement) void document.exitPictureInPicture().catch(() => {});
    else void v.requestPictureInPicture().catch(() => {});
  };

  const setVolume = (value: number) => {
    const v = video.current;
    if (!v) return;
    v.volume = value;
    v.muted = value === 0;
  };

  const changeQuality = (next: Rendition) => {
    const v = video.current;
    rememberQualityHeight(next.height);
    if (!v || next === rendition) return;
    pending.current = { at: v.currentTime, play: !v.paused };
    setRendition(next);
  };

  const retry = () => {
    const spot = pending.current ?? { at: video.current?.currentTime ?? 0, play: true };
    setFailure(null);
    retried.current = false;
    void refreshSession().then(() => reload(spot.at, true));
  };

  if (!rendition) return null;
  const noun = playback.type === 'vod' ? 'VOD' : 'video';
  // The original played before encoding has no known size (0 x 0): 16:9 then (styles.css).
  const ratio = (
    rendition.width > 0 && rendition.height > 0 ? { '--player-ratio': String(rendition.width / rendition.height) } : {}
  ) as CSSProperties;
  return (
    <div className="player" style={ratio}>
      <div
        ref={frame}
        className={gone ? 'player-frame player-gone' : 'player-frame'}
        role="group"
        aria-label={`Video player: ${playback.updatename}`}
      >
        <div className="player-screen">
          {/* Clicking or tapping the picture plays and pauses (the play button and k/Space do the same for keyboards). */}
          <video
            ref={video}
            src={rendition.url}
            className="player-video"
            playsInline
            preload="metadata"
            poster={playback.poster ?? undefined}
            style={{ aspectRatio: `${rendition.width} / ${rendition.height}` }}
            aria-label={playback.updatename}
            onClick={togglePlay}
          />
          {gone ? (
            <div className="player-failure" role="alert">
              <p>This {noun} is no longer available.</p>
              <Link className="button" to={LISTING[playback.type]}>
                Back to {playback.type === 'vod' ? 'VODs' : 'videos'}
              </Link>
            </div>
          ) : failure === 'failed' ? (
            <div className="player-failure" role="alert">
              <p>Playback failed.</p>
              <button type="button" className="button button-primary" onClick={retry}>
                Retry
              </button>
            </div>
          ) : null}
        </div>
        {gone ? null : (
          <div className="player-controls">
            {duration > 0 ? <SeekBar duration={duration} current={current} thumbnails={playback.thumbnails} onSeek={seek} /> : null}
            <div className="player-buttons">
              <BarButton
                label={media.paused ? 'Play' : 'Pause'}
                icon={media.paused ? 'play' : 'pause'}
                title={media.paused ? 'Play (k)' : 'Pause (k)'}
                onClick={togglePlay}
              />
              <BarButton
                label="Mute"
                icon={media.muted || media.volume === 0 ? 'muted' : 'volume'}
                title={media.muted ? 'Unmute (m)' : 'Mute (m)'}
                pressed={media.muted}
                onClick={toggleMute}
              />
              <input
                className="player-volume"
                type="range"
                min={0}
                max={1}
                step={0.05}
                value={media.muted ? 0 : media.volume}
                aria-label="Volume"
                onChange={(event) => setVolume(Number(event.target.value))}
              />
              <span className="player-time">
                {formatTime(current)} / {formatTime(duration)}
              </span>
              <span className="player-spacer" />
              {playback.renditions.length > 1 ? (
                <QualityMenu renditions={playback.renditions} current={rendition} onPick={changeQuality} />
              ) : null}
              {typeof document !== 'undefined' && document.pictureInPictureEnabled ? (
                <BarButton label="Picture in picture" icon="pip" title="Picture in picture" pressed={media.pip} onClick={togglePip} />
              ) : null}
              <BarButton
                label="Full screen"
                icon={media.fullscreen ? 'exitFullscreen' : 'fullscreen'}
                title={media.fullscreen ? 'Exit full screen (f)' : 'Full screen (f)'}
                pressed={media.fullscreen}
                onClick={toggleFullscreen}
              />
            </div>
          </div>
        )}
      </div>
      <div className="player-notes">
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
        {gone ? null : <p className="player-keys muted">Keys: space/k play · ←/→ 5 s · f full screen · m mute</p>}
      </div>
    </div>
  );
}
