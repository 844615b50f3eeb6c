import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { GenerationIndex, TooManyRows } from '../../../search-index/generation-index';
import { TrigramIndex, type IndexedRow } from '../../../search-index/trigram-index';
import type { ContentTable } from '../shared/content-page';
import { loadIndexSource, type SearchRow } from './repository';

export type CatalogIndex = Record<ContentTable, TrigramIndex<SearchRow>>;
export type CatalogSearchIndex = GenerationIndex<CatalogIndex>;

export interface CatalogSearchIndexOptions {
  /** Per content type; a bigger table keeps that generation on the database path. */
  maxRows: number;
  /** Rows per keyset page of the load (tests use tiny pages to cross page boundaries). */
  pageRows?: number;
  logger?: Logger | undefined;
}

const TABLES: readonly ContentTable[] = ['photosets', 'videos', 'vods'];
// Read in keyset pages, one table at a time: 100,000 rows in one result stalled the event loop for
// 40–125 ms of garbage collection on the bench machine, pages of 10,000 for 20–40 ms.
const PAGE_ROWS = 10_000;

const NO_TAGS: readonly string[] = Object.freeze([]);

async function loadTable(knex: Knex, table: ContentTable, maxRows: number, pageRows: number): Promise<Array<IndexedRow<SearchRow>>> {
  const rows: Array<IndexedRow<SearchRow>> = [];
  // One string per distinct tag across the table (a tag is on thousands of rows; the driver gives each its own copy).
  const interned = new Map<string, string>();
  const intern = (tag: string) => interned.get(tag) ?? (interned.set(tag, tag), tag);
  let after: SearchRow | undefined;
  for (;;) {
    const { rows: page, tags } = await loadIndexSource(knex, table, after, pageRows);
    for (const { search_text, id, path, updatename, modelname, datetoupload, photocount, duration, encoded } of page) {
      const own = tags.get(Number(id));
      rows.push({
        row: {
          id: Number(id),
          path,
          updatename,
          modelname,
          datetoupload: String(datetoupload).slice(0, 10),
          photocount,
          duration,
          encoded,
          tags: own ? own.map(intern) : NO_TAGS,
        },
        text: search_text,
      });
    }
    if (rows.length > maxRows) throw new TooManyRows(`${table} has more than SEARCH_INDEX_MAX_ROWS (${maxRows}) rows`);
    if (page.length < pageRows) return rows;
    after = rows.at(-1)!.row;
  }
}

/** The search index of the three content tables, rebuilt for each catalog generation. */
export function catalogSearchIndex(knex: Knex, { maxRows, pageRows = PAGE_ROWS, logger }: CatalogSearchIndexOptions): CatalogSearchIndex {
  return new GenerationIndex({
    logger,
    async build() {
      const index: Partial<CatalogIndex> = {};
      for (const table of TABLES) {
        const rows = await loadTable(knex, table, maxRows, pageRows);
        index[table] = await TrigramIndex.build(rows);
      }
      return index as CatalogIndex;
    },
  });
}
