import { httpError } from '../../api/fetchJson';
import type { SearchResult } from '../../api/types';

/** The bff's reason for refusing a search term or filter (too long, unknown value), shown as it is. */
export class SearchTermError extends Error {
  override name = 'SearchTermError';
}

/** The API address of a search: the term (if any) in the path, the filters as the page's query. */
export const searchUrl = (term: string, filters: URLSearchParams): string => {
  const query = filters.toString();
  return `/api/search${term ? `/${encodeURIComponent(term)}` : ''}${query ? `?${query}` : ''}`;
};

export async function search(url: string, signal: AbortSignal): Promise<SearchResult> {
  const response = await fetch(url, { signal, headers: { Accept: 'application/json' } });
  if (!response.ok) {
    const error = await httpError(response);
    if (error.status === 400) throw new SearchTermError(error.serverMessage ?? 'This search cannot be run');
    throw error;
  }
  return (await response.json()) as SearchResult;
}
