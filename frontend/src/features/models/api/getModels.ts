import { fetchJson } from '../../api/fetchJson';
import type { ModelItem } from '../../api/types';

export function getModels(letter: string, signal: AbortSignal): Promise<ModelItem[]> {
  return fetchJson<ModelItem[]>(`/api/models/${letter}`, { signal });
}
