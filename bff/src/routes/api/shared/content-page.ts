import type { KeyColumn } from './page-anchors';

export type ContentTable = 'photosets' | 'videos' | 'vods';
export type ListingOrder = 'alpha' | 'date';

/** The columns every content list item is built from (shared/content-item.ts). */
export interface ContentRow {
  id: number;
  path: string;
  updatename: string;
  modelname: string;
  datetoupload: string;
}

export const CONTENT_COLUMNS = ['id', 'path', 'updatename', 'modelname', 'datetoupload'] as const;

/** A video's or VOD's row also brings its running time (migration 013; null while unknown). */
export interface ClipRow extends ContentRow {
  duration: number | string | null;
  /** 1 once encoded (shared/repository.ts, encodedColumn). */
  encoded: number | string;
}

export const CLIP_COLUMNS = [...CONTENT_COLUMNS, 'duration'] as const;

export const LISTING_KEYS: Record<ListingOrder, readonly KeyColumn[]> = {
  alpha: [
    { column: 'updatename', direction: 'asc' },
    { column: 'id', direction: 'asc' },
  ],
  date: [
    { column: 'datetoupload', direction: 'desc' },
    { column: 'id', direction: 'desc' },
  ],
};

export const contentListName = (table: ContentTable, order: ListingOrder) => `${table}:${order}`;
