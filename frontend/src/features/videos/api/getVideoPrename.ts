import { fetchJson } from '../../api/fetchJson';
import type { VideoItem, VideoPrename } from '../../api/types';

/** `/api/videos/prename/{folder}`: spec §3's prename and the download path, plus the list item's fields. */
export type VideoDetail = VideoPrename & VideoItem;

export function getVideoPrename(folder: string, signal: AbortSignal): Promise<VideoDetail> {
  return fetchJson<VideoDetail>(`/api/videos/prename/${encodeURIComponent(folder)}`, { signal });
}
