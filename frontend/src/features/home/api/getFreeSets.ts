import { fetchJsonOrEarly } from '../../api/fetchJson';

/** One free photo set as the listing sends it: enough for a card that links to /freephotos/{path}. */
export interface FreeSetItem {
  path: string;
  updatename: string;
  thumbnail: string | null;
}

// The free sets are few (a handful of previews): the first page is all of them.
export function getFreeSets(signal: AbortSignal): Promise<FreeSetItem[]> {
  const url = '/api/freephotos/1';
  // May already be on its way (issue 23, firstScreen/earlyAnswers.ts).
  return fetchJsonOrEarly<FreeSetItem[]>(url, { signal });
}
