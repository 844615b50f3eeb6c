import { fetchJson } from '../../api/fetchJson';

export function getFreeThumbnails(folder: string, signal: AbortSignal): Promise<string[]> {
  return fetchJson<string[]>(`/api/freethumbnails/${encodeURIComponent(folder)}`, { signal });
}
