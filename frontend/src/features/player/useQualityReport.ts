import { useEffect, useRef, type RefObject } from 'react';
import { PLAYER_REPORT_EVENTS_MAX, PLAYER_REPORT_MAX_MS, type PlayerErrorKind } from '@media-site/contracts/player-quality';
import type { PlayerEvent } from '@media-site/contracts/player-report';
import { listen } from './listen';

/** While there is something to report, one batch at most this often (and one when the page goes). */
export const REPORT_EVERY_MS = 30_000;
const REPORTS_URL = '/api/player/reports';

/** `MediaError.code` by name (1 aborted, 2 network, 3 decode, 4 source not supported). */
const ERROR_KINDS: Record<number, PlayerErrorKind> = { 1: 'aborted', 2: 'network', 3: 'decode', 4: 'unsupported' };

/** Sends one batch so that it outlives the page: a beacon, or a keepalive fetch where there is none. */
export function sendReport(events: PlayerEvent[]): void {
  const body = JSON.stringify({ events });
  const blob = new Blob([body], { type: 'application/json' });
  if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(REPORTS_URL, blob)) return;
  void fetch(REPORTS_URL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
    credentials: 'same-origin',
    keepalive: true,
  }).catch(() => {});
}

/**
 * How playback goes, as events for the bff's player metrics: the first start's time to the first
 * frame, each stall while playing (waiting for data, not for a seek) and its length, a change of
 * rendition, an error. `shortSide` is the rendition playing now. The clock is a parameter so that
 * the rules can be tested without a media element.
 */
export function qualityTracker(shortSide: () => number, send: (events: PlayerEvent[]) => void, now = () => performance.now()) {
  let events: PlayerEvent[] = [];
  let started = false;
  let playAt: number | null = null;
  let stallAt: number | null = null;
  let seeking = false;
  const ms = (since: number) => Math.min(Math.max(Math.round(now() - since), 0), PLAYER_REPORT_MAX_MS);
  const add = (event: PlayerEvent) => {
    // A file whose size is not known (0) says nothing a rendition label could.
    if (event.rendition < 1 || (event.kind === 'switch' && event.from < 1)) return;
    events.push(event);
    if (events.length >= PLAYER_REPORT_EVENTS_MAX) flush();
  };
  const flush = () => {
    if (events.length === 0) return;
    const batch = events;
    events = [];
    send(batch);
  };
  return {
    flush,
    pending: () => events.length,
    /** Play was asked for: the first one starts the clock to the first frame. */
    play() {
      if (!started && playAt === null) playAt = now();
    },
    /** Frames are moving (the first time, or again after waiting). */
    playing() {
      if (playAt !== null) {
        add({ kind: 'start', rendition: shortSide(), ms: ms(playAt) });
        playAt = null;
        started = true;
      }
      if (stallAt !== null) add({ kind: 'stall', rendition: shortSide(), ms: ms(stallAt) });
      stallAt = null;
    },
    /** Out of data. After the first frame and not for a seek, that is a stall. */
    waiting() {
      if (started && !seeking && stallAt === null) stallAt = now();
    },
    seeking() {
      seeking = true;
      stallAt = null;
    },
    seeked() {
      seeking = false;
    },
    /** Paused, or the source changed: whatever wait was running is not a stall to report. */
    interrupted() {
      stallAt = null;
      seeking = false;
    },
    switched(from: number, to: number) {
      if (from !== to) add({ kind: 'switch', rendition: to, from });
    },
    error(code: number | undefined) {
      playAt = null;
      stallAt = null;
      add({ kind: 'error', rendition: shortSide(), error: ERROR_KINDS[code ?? 0] ?? 'other' });
    },
  };
}

/**
 * Reports the player's quality (POST /api/player/reports) in small batches: every 30 s while there
 * is something new, when the page is hidden or goes away, and when the player unmounts. Nothing
 * names the member or the item; the bff counts by rendition and browser family only.
 */
export function useQualityReport(video: RefObject<HTMLVideoElement | null>, shortSide: number | undefined): void {
  const side = useRef(shortSide ?? 0);
  const tracker = useRef<ReturnType<typeof qualityTracker> | null>(null);

  useEffect(() => {
    const before = side.current;
    side.current = shortSide ?? 0;
    if (shortSide !== undefined && before > 0) tracker.current?.switched(before, shortSide);
  }, [shortSide]);

  useEffect(() => {
    const v = video.current;
    if (!v) return undefined;
    const t = qualityTracker(() => side.current, sendReport);
    tracker.current = t;
    const stopVideo = listen(v, {
      play: t.play,
      playing: t.playing,
      waiting: t.waiting,
      seeking: t.seeking,
      seeked: t.seeked,
      pause: t.interrupted,
      emptied: t.interrupted,
      error: () => t.error(v.error?.code),
    });
    const hidden = () => {
      if (document.visibilityState === 'hidden') t.flush();
    };
    const stopPage = listen(window, { pagehide: t.flush });
    const stopDocument = listen(document, { visibilitychange: hidden });
    const timer = setInterval(t.flush, REPORT_EVERY_MS);
    return () => {
      stopVideo();
      stopPage();
      stopDocument();
      clearInterval(timer);
      t.flush();
      tracker.current = null;
    };
  }, [video]);
}
