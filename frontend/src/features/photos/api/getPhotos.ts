import { fetchJson } from '../../api/fetchJson';
import type { PhotoItem } from '../../api/types';
import type { GallerySort } from '../../../components/PagedGallery';

export function photosUrl(page: number, sort: GallerySort): string {
  return sort === 'date' ? `/api/photos-by-date/${page}` : `/api/photos/${page}`;
}

export function getPhotos(url: string, signal: AbortSignal): Promise<PhotoItem[]> {
  return fetchJson<PhotoItem[]>(url, { signal });
}
