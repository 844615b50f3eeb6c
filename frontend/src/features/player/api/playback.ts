import type { ActivityEvent } from '@media-site/contracts/stats-vocabulary';
import type { PlayableType } from '@media-site/contracts/playback-layout';
import type { ContinueItem, ContinueWatching, Playback } from '@media-site/contracts/playback-api';
import { fetchJson } from '../../api/fetchJson';

// The player's answers, typed from the shapes the bff builds them as (contracts/src/playback-api.ts).
export type { PlayableType } from '@media-site/contracts/playback-layout';
export type { DownloadChoice } from '@media-site/contracts/member-api';
export type { ContinueItem, Playback, PlayAccess, PlayState, PositionView, Rendition } from '@media-site/contracts/playback-api';

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

/**
 * `POST /api/activity/{type}/{folder}`: a play started or finished, for the console's Stats (counted
 * once per member, item and day; nothing else is sent). Best effort: a lost report is one count less.
 */
export async function reportActivity(type: PlayableType, folder: string, event: ActivityEvent): Promise<void> {
  try {
    await fetch(`/api/activity/${target(type, folder)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ event }),
      credentials: 'same-origin',
      keepalive: true,
    });
  } catch {
    // Offline or navigating away: the stats miss one play, nothing else depends on it.
  }
}

/** `GET /api/positions`: the member's unfinished videos and VODs, most recent first. */
export async function getContinueWatching(signal?: AbortSignal): Promise<ContinueItem[]> {
  return (await fetchJson<ContinueWatching>('/api/positions', { signal, credentials: 'same-origin' })).items;
}
