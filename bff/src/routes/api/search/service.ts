import type { CachedBody } from '../../../cache/catalog-cache';
import type { ApiDeps } from '../deps';
import type { ContentTable } from '../shared/content-page';
import { photoSetThumbnail, videoThumbnail, vodThumbnail } from '../shared/media-urls';
import { searchContent, type SearchRow } from './repository';

export const SEARCH_LIMIT = 50;

const item = (thumbnail: (path: string) => string) => (row: SearchRow) => ({
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
async function findMatches({ knex, cache, searchIndex }: ApiDeps, lower: string): Promise<Matches> {
  const index = searchIndex?.current(await cache.generation());
  if (index) {
    return {
      photosets: index.photosets.find(lower, SEARCH_LIMIT),
      videos: index.videos.find(lower, SEARCH_LIMIT),
      vods: index.vods.find(lower, SEARCH_LIMIT),
    };
  }
  const [photosets, videos, vods] = await Promise.all([
    searchContent(knex, 'photosets', lower, SEARCH_LIMIT),
    searchContent(knex, 'videos', lower, SEARCH_LIMIT),
    searchContent(knex, 'vods', lower, SEARCH_LIMIT),
  ]);
  return { photosets, videos, vods };
}

export function search(deps: ApiDeps, term: string): Promise<CachedBody> {
  // search_text is lower-cased in JS when written; lower-casing the term the same way makes the
  // match case-insensitive for every script on every backend.
  const lower = term.toLowerCase();
  return deps.cache.get(`search:${lower}`, async () => {
    const { photosets, videos, vods } = await findMatches(deps, lower);
    return {
      photos: photosets.map(item(photoSetThumbnail)),
      videos: videos.map(item(videoThumbnail)),
      vods: vods.map(item(vodThumbnail)),
    };
  });
}
