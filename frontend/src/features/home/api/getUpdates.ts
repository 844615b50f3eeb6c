import { fetchJson } from '../../api/fetchJson';
import type { UpdateItem } from '../../api/types';

export const UPDATES_PAGE_SIZE = 30;

export function getUpdates(page: number, signal: AbortSignal): Promise<UpdateItem[]> {
  return fetchJson<UpdateItem[]>(`/api/updates/${page}`, { signal });
}
