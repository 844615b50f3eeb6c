import { fetchJson } from '../../api/fetchJson';
import type { PhotoSetDetail } from '../../api/types';

export type { PhotoSetDetail };

/** `GET /api/photos/set/{folder}`: the set's list item plus its photo count and file names in order. */
export function getPhotoSet(folder: string, signal: AbortSignal): Promise<PhotoSetDetail> {
  return fetchJson<PhotoSetDetail>(`/api/photos/set/${encodeURIComponent(folder)}`, { signal });
}

/** The site path of one photo of a set: the media service's file, and the app's viewer page. */
export function photoPath(folder: string, file: string): string {
  return `/members/photos/${encodeURIComponent(folder)}/${encodeURIComponent(file)}`;
}

/** The whole set as one ZIP (the media service builds it from the set's files; resumable). */
export function setZipPath(folder: string): string {
  return photoPath(folder, `${folder}.zip`);
}
