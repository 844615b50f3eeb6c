import type { SavedAnswer, SavedItem, SavedList, SavedReleases, SavedType } from '@media-site/contracts/saved-api';
import { fetchJson, httpError } from '../api/fetchJson';

// "My list" (contracts/src/saved-api.ts): the SPA imports the types only.
export type { SavedItem, SavedRelease, SavedType } from '@media-site/contracts/saved-api';

const target = (type: SavedType, key: string) => `/api/saved/${type}/${encodeURIComponent(key)}`;

export function getSaved(signal?: AbortSignal): Promise<SavedList> {
  return fetchJson<SavedList>('/api/saved', { signal, credentials: 'same-origin' });
}

export async function putSaved(type: SavedType, key: string): Promise<SavedItem> {
  return (await fetchJson<SavedAnswer>(target(type, key), { method: 'PUT', credentials: 'same-origin' })).item;
}

export async function deleteSaved(type: SavedType, key: string): Promise<void> {
  const response = await fetch(target(type, key), {
    method: 'DELETE',
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
  });
  if (!response.ok) throw await httpError(response);
}

/** The page of an item of My list. */
export function savedHref(item: { type: SavedType; key: string }): string {
  const section = { photo: 'photos', video: 'video', vod: 'vod', model: 'models' }[item.type];
  return `/${section}/${encodeURIComponent(item.key)}`;
}

export async function getSavedReleases(signal?: AbortSignal): Promise<SavedReleases['items']> {
  return (await fetchJson<SavedReleases>('/api/saved/releases', { signal, credentials: 'same-origin' })).items;
}
