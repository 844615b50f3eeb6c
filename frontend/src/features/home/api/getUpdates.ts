import { fetchJson, fetchJsonOrEarly } from '../../api/fetchJson';
import type { UpdateItem } from '../../api/types';

export const UPDATES_PAGE_SIZE = 30;

export function getUpdates(page: number, signal: AbortSignal): Promise<UpdateItem[]> {
  const url = `/api/updates/${page}`;
  // Page 1 may already be on its way (firstScreen/earlyAnswers.ts).
  return page === 1 ? fetchJsonOrEarly<UpdateItem[]>(url, { signal }) : fetchJson<UpdateItem[]>(url, { signal });
}
