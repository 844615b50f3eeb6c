import { fetchJson } from '../../api/fetchJson';
import type { VodItem } from '../../api/types';

export const VOD_PAGE_SIZE = 20;

export function getVods(page: number, signal: AbortSignal): Promise<VodItem[]> {
  return fetchJson<VodItem[]>(`/api/vod/${page}`, { signal });
}
