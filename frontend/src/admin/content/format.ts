import type { ContentItem, ContentKind, ContentState } from '../shared/api';

export const KIND_TEXT: Record<ContentKind, string> = {
  photoset: 'Photo set',
  freephotoset: 'Free set',
  video: 'Video',
  vod: 'VOD',
  model: 'Model',
};
const SITE_PREFIX: Record<ContentKind, string> = {
  photoset: '/photos/',
  freephotoset: '/freephotos/',
  video: '/video/',
  vod: '/vod/',
  model: '/models/',
};
export const STATE_TEXT: Record<ContentState, string> = { all: 'Any', live: 'Published', scheduled: 'Scheduled', takendown: 'Taken down' };

/** The item's address on the site, which the content routes also take to name it. */
export const sitePath = (item: Pick<ContentItem, 'type' | 'path'>) => `${SITE_PREFIX[item.type]}${encodeURIComponent(item.path)}`;
/** "Video my-clip", as the screen names an item in headings and notices. */
export const itemName = (item: ContentItem) => `${KIND_TEXT[item.type]} ${item.path}`;
export const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
/** In the operator's zone, with its name ("27 Nov 2026, 03:26 CET"); dateStyle cannot be combined with timeZoneName. */
export const localTime = (ms: number) =>
  new Date(ms).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });

/** A datetime-local value (the operator's zone): the start of the minute after next, a minute or more ahead. */
export function inAMinute(): string {
  const d = new Date(Math.ceil((Date.now() + 60_000) / 60_000) * 60_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** "beach, Black and White," → ["beach", "Black and White"]: the Tags field, as the CLI's --tags reads it. */
export const tagList = (text: string) =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
