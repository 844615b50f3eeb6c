import { fetchJson } from '../../api/fetchJson';
import type { SearchResult } from '../../api/types';

export function search(term: string, signal: AbortSignal): Promise<SearchResult> {
  return fetchJson<SearchResult>(`/api/search/${encodeURIComponent(term)}`, { signal });
}
