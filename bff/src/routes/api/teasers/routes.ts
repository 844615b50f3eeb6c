import type Router from '@koa/router';
import type { TeaserItem } from '@media-site/contracts/api';
import { teasedItems } from '@media-site/db/content';
import type { CachedBody } from '../../../cache/catalog-cache';
import type { ApiDeps } from '../deps';
import { replayable } from '../shared/respond';

// "Coming soon": the teased items not released yet, soonest first, for home's strip.
// Only what the card shows: no path, no link, no media but the cover (the media service opens that one
// file of a teased item before its release). Cached per catalog generation like the listings: a
// release, a tease or an untease moves the generation, so the teaser turns into the item at once.

export const TEASERS_SHOWN = 12;

export function comingSoon({ knex, cache }: ApiDeps): Promise<CachedBody> {
  return cache.get('coming-soon', async () =>
    (await teasedItems(knex, Date.now())).slice(0, TEASERS_SHOWN).map((t): TeaserItem => ({
      type: t.type,
      title: t.title,
      modelname: t.modelname,
      releaseAt: t.publishAt,
      thumbnail: `/members/${t.cover}`,
    })),
  );
}

export function teaserRoutes(router: Router, deps: ApiDeps): void {
  router.get(
    '/coming-soon',
    replayable(deps.cache, () => comingSoon(deps)),
  );
}
