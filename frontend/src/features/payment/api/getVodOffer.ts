import { fetchJson } from '../../api/fetchJson';
import type { VodDetail } from '../../api/types';

/** The VOD named by /ccbill?vod=: its title and listed price for the form. */
export function getVodOffer(folder: string, signal: AbortSignal): Promise<VodDetail> {
  return fetchJson<VodDetail>(`/api/vod/prename/${encodeURIComponent(folder)}`, { signal });
}
