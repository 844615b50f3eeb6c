import type { SearchResult } from '@media-site/contracts/api';
import type { CachedBody } from '../../../cache/catalog-cache';
import type { ApiDeps } from '../deps';
import type { ContentTable } from '../shared/content-page';
import { durationOf, previewOf } from '../shared/facts';
import { photoSetThumbnail, videoThumbnail, vodThumbnail } from '../shared/media-urls';
import { searchContent, type SearchRow } from './repository';

export const SEARCH_LIMIT = 50;

const hit = (row: SearchRow, thumbnail: (path: string) => string) => ({
  path: row.path,
  updatename: row.updatename,
  modelname: row.modelname,
  thumbnail: thumbnail(row.path),
});

type Matches = Record<ContentTable, SearchRow[]>;

/**
 * From the in-process index of the current generation when it is built; otherwise (index off, too
 * many rows, or still building after a catalog change) from the database, so a change is visible
 * at once.
 */
async function findMatches({ knex, cache, searchIndex }: ApiDeps, words: readonly string[]): Promise<Matches> {
  const index = searchIndex?.current(await cache.generation());
  if (index) {
    return {
      photosets: index.photosets.findAll(words, SEARCH_LIMIT),
      videos: index.videos.findAll(words, SEARCH_LIMIT),
      vods: index.vods.findAll(words, SEARCH_LIMIT),
    };
  }
  const [photosets, videos, vods] = await Promise.all([
    searchContent(knex, 'photosets', words, SEARCH_LIMIT),
    searchContent(knex, 'videos', words, SEARCH_LIMIT),
    searchContent(knex, 'vods', words, SEARCH_LIMIT),
  ]);
  return { photosets, videos, vods };
}

/**
 * Items whose title or model name holds every word, in any order. `words` come folded from
 * searchTermParam (foldForSearch, as search_text is written), so the match ignores case and
 * diacritics for every script on every backend.
 */
export function search(deps: ApiDeps, words: readonly string[]): Promise<CachedBody> {
  // Words are sorted and unique: any order of the same words is one cache entry. A space cannot be
  // inside a word, so the key is unambiguous.
  return deps.cache.get(`search:${words.join(' ')}`, async () => {
    const { photosets, videos, vods } = await findMatches(deps, words);
    const result: SearchResult = {
      photos: photosets.map((row) => ({ ...hit(row, photoSetThumbnail), photocount: Number(row.photocount ?? 0) })),
      videos: videos.map((row) => ({
        ...hit(row, videoThumbnail),
        duration: durationOf(row.duration),
        preview: previewOf('video', row.path, row.encoded),
      })),
      vods: vods.map((row) => ({
        ...hit(row, vodThumbnail),
        duration: durationOf(row.duration),
        preview: previewOf('vod', row.path, row.encoded),
      })),
    };
    return result;
  });
}
