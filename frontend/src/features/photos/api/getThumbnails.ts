import { fetchJson } from '../../api/fetchJson';

export function getThumbnails(folder: string, signal: AbortSignal): Promise<string[]> {
  return fetchJson<string[]>(`/api/thumbnails/${encodeURIComponent(folder)}`, { signal });
}
