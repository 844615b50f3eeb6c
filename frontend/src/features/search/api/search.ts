import { httpError } from '../../api/fetchJson';
import type { SearchResult } from '../../api/types';

/** The bff's reason for refusing a search term (too long, too many words), shown as it is. */
export class SearchTermError extends Error {
  override name = 'SearchTermError';
}

export async function search(term: string, signal: AbortSignal): Promise<SearchResult> {
  const response = await fetch(`/api/search/${encodeURIComponent(term)}`, { signal, headers: { Accept: 'application/json' } });
  if (!response.ok) {
    const error = await httpError(response);
    if (error.status === 400) throw new SearchTermError(error.serverMessage ?? 'This search term cannot be searched');
    throw error;
  }
  return (await response.json()) as SearchResult;
}
