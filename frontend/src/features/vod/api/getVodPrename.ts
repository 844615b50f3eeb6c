import { fetchJson } from '../../api/fetchJson';
import type { VodDetail } from '../../api/types';

export function getVodPrename(folder: string, signal: AbortSignal): Promise<VodDetail> {
  return fetchJson<VodDetail>(`/api/vod/prename/${encodeURIComponent(folder)}`, { signal });
}
