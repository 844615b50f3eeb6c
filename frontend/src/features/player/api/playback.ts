import { fetchJson } from '../../api/fetchJson';

export type PlayableType = 'video' | 'vod';

/** What stands between the session and the renditions (bff/README.md, "Playback and continue watching"). */
export type PlayAccess = 'granted' | 'sign_in' | 'membership_required' | 'purchase_required' | 'withdrawn';
export type PlayState = 'ready' | 'preparing' | 'failed' | 'unavailable';

export interface Rendition {
  label: string;
  url: string;
  width: number;
  height: number;
  bitrate: number;
  /** The exact `<source type>`, codecs included. */
  type: string;
}

/** One size to download: `Original`, then each rendition (`1080p`…), largest first. */
export interface DownloadChoice {
  label: string;
  /** null: not known (an item encoded before its original's size was recorded, or not encoded yet). */
  bytes: number | null;
  /** The site path /api/download-link signs. */
  path: string;
}

export interface PositionView {
  seconds: number;
  duration: number | null;
  completed: boolean;
  updatedAt: string | null;
}

/** `GET /api/playback/{type}/{folder}`: everything the player needs, for this session. */
export interface Playback {
  type: PlayableType;
  path: string;
  updatename: string;
  modelname: string;
  access: PlayAccess;
  state: PlayState;
  /** 0..1 while `preparing`. */
  progress: number | null;
  duration: number | null;
  poster: string | null;
  thumbnails: string | null;
  trailer: string | null;
  /** Largest first; empty unless `granted` and `ready`. */
  renditions: Rendition[];
  download: string | null;
  /** Every size to download; empty unless `granted`. */
  downloads?: DownloadChoice[];
  position: PositionView | null;
}

export interface ContinueItem {
  type: PlayableType;
  path: string;
  updatename: string;
  modelname: string;
  thumbnail: string | null;
  seconds: number;
  duration: number | null;
  updatedAt: string;
}

const target = (type: PlayableType, folder: string) => `${type}/${encodeURIComponent(folder)}`;

export function getPlayback(type: PlayableType, folder: string, signal?: AbortSignal): Promise<Playback> {
  return fetchJson<Playback>(`/api/playback/${target(type, folder)}`, { signal, credentials: 'same-origin' });
}

/**
 * Stores where the member is. `keepalive` lets the request outlive the page (pagehide): sendBeacon
 * cannot PUT. Failures are ignored: a lost position is not worth an error on the player.
 */
export async function savePosition(type: PlayableType, folder: string, seconds: number, keepalive = false): Promise<void> {
  try {
    await fetch(`/api/positions/${target(type, folder)}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ seconds: Math.max(0, Math.round(seconds * 1000) / 1000) }),
      credentials: 'same-origin',
      keepalive,
    });
  } catch {
    // Offline or navigating away: the next save or the next visit catches up.
  }
}

/** `GET /api/positions`: the member's unfinished videos and VODs, most recent first. */
export async function getContinueWatching(signal?: AbortSignal): Promise<ContinueItem[]> {
  return (await fetchJson<{ items: ContinueItem[] }>('/api/positions', { signal, credentials: 'same-origin' })).items;
}
