import { fetchJsonOrEarly } from '../../api/fetchJson';
import type { FreeSetItem } from '../../api/types';

export type { FreeSetItem };

// The free sets are few (a handful of previews): the first page is all of them.
export function getFreeSets(signal: AbortSignal): Promise<FreeSetItem[]> {
  const url = '/api/freephotos/1';
  // May already be on its way (firstScreen/earlyAnswers.ts).
  return fetchJsonOrEarly<FreeSetItem[]>(url, { signal });
}
