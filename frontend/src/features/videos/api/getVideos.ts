import { fetchJson } from '../../api/fetchJson';
import type { VideoItem } from '../../api/types';
import type { GallerySort } from '../../../components/PagedGallery';

export function videosUrl(page: number, sort: GallerySort): string {
  return sort === 'date' ? `/api/videos-by-date/${page}` : `/api/videos/${page}`;
}

export function getVideos(url: string, signal: AbortSignal): Promise<VideoItem[]> {
  return fetchJson<VideoItem[]>(url, { signal });
}
