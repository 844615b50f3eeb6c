import { fetchJson } from '../../api/fetchJson';
import type { FreeSetItem } from '../../api/types';

export type { FreeSetItem };

// The free sets are few (a handful of previews): the first page is all of them.
export function getFreeSets(signal: AbortSignal): Promise<FreeSetItem[]> {
  return fetchJson<FreeSetItem[]>('/api/freephotos/1', { signal });
}
