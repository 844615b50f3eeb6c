import { useEffect, useRef, type RefObject } from 'react';
import { savePosition, type PlayableType } from './api/playback';
import { listen } from './listen';

/** While playing, at most one save per this long. */
export const SAVE_EVERY_MS = 10_000;
/** Pauses and seeks save at once, but never closer together than this (the bff allows 30 a minute). */
const MIN_GAP_MS = 2_500;

/**
 * Remembers where the member is, server-side (`PUT /api/positions/...`): every 10 s while playing,
 * on pause, after a seek, at the end, and when the page goes away (`keepalive`, which outlives the
 * page). Nothing is written until the member has pressed play once, so opening a video and leaving
 * never overwrites a stored position with 0.
 */
export function usePositionSaver(
  videoRef: RefObject<HTMLVideoElement | null>,
  type: PlayableType,
  folder: string,
  knownDuration: number | null,
): void {
  const state = useRef({ started: false, lastAt: 0, lastSeconds: -1, timer: 0 as ReturnType<typeof setTimeout> | 0 });

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return undefined;
    const s = state.current;

    const position = (): number | null => {
      const duration = knownDuration ?? (Number.isFinite(video.duration) ? video.duration : null);
      const at = video.ended && duration !== null ? duration : video.currentTime;
      if (!Number.isFinite(at)) return null;
      return duration === null ? at : Math.min(at, duration);
    };

    const write = (keepalive = false) => {
      if (s.timer) clearTimeout(s.timer);
      s.timer = 0;
      const seconds = position();
      if (!s.started || seconds === null || Math.abs(seconds - s.lastSeconds) < 0.25) return;
      s.lastAt = Date.now();
      s.lastSeconds = seconds;
      void savePosition(type, folder, seconds, keepalive);
    };

    /** A save now, or as soon as the minimum gap allows (one trailing save covers a burst of seeks). */
    const soon = () => {
      const wait = s.lastAt + MIN_GAP_MS - Date.now();
      if (wait <= 0) write();
      else if (!s.timer) s.timer = setTimeout(() => write(), wait);
    };

    const onPlay = () => {
      // The first periodic save comes 10 s into playing, not at the first frame.
      if (!s.started) s.lastAt = Date.now();
      s.started = true;
    };
    const onTime = () => {
      if (!video.paused && Date.now() - s.lastAt >= SAVE_EVERY_MS) soon();
    };
    const onLeave = () => write(true);

    const stopVideo = listen(video, { play: onPlay, timeupdate: onTime, pause: soon, seeked: soon, ended: soon });
    const stopPage = listen(window, { pagehide: onLeave });
    return () => {
      stopVideo();
      stopPage();
      // Leaving the page inside the app (or switching videos) counts as leaving.
      onLeave();
    };
  }, [videoRef, type, folder, knownDuration]);
}
