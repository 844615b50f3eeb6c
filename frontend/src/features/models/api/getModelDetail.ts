import { fetchJson } from '../../api/fetchJson';
import type { ModelDetail } from '../../api/types';

export function getModelDetail(name: string, signal: AbortSignal): Promise<ModelDetail> {
  return fetchJson<ModelDetail>(`/api/modelname/${encodeURIComponent(name)}`, { signal });
}
