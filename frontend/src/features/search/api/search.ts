import { HttpError } from '../../api/fetchJson';
import type { SearchResult } from '../../api/types';

/** The bff's reason for refusing a search term (too long, too many words), shown as it is. */
export class SearchTermError extends Error {
  override name = 'SearchTermError';
}

export async function search(term: string, signal: AbortSignal): Promise<SearchResult> {
  const response = await fetch(`/api/search/${encodeURIComponent(term)}`, { signal, headers: { Accept: 'application/json' } });
  if (response.status === 400) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new SearchTermError(body?.error?.message ?? 'This search term cannot be searched');
  }
  if (!response.ok) throw new HttpError(response.status);
  return (await response.json()) as SearchResult;
}
