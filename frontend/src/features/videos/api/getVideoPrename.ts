import { fetchJson } from '../../api/fetchJson';
import type { VideoPrename } from '../../api/types';

export function getVideoPrename(folder: string, signal: AbortSignal): Promise<VideoPrename> {
  return fetchJson<VideoPrename>(`/api/videos/prename/${encodeURIComponent(folder)}`, { signal });
}
