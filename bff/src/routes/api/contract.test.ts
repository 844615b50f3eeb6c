import {
  freeSetItem,
  teaserItem,
  modelDetail,
  modelItem,
  photoItem,
  photoSetDetail,
  searchResult,
  updateItem,
  videoItem,
  videoPrename,
  vodDetail,
  vodItem,
} from '@media-site/contracts/api';
import { ERROR_CODES, ERROR_STATUS } from '@media-site/contracts/errors';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { describeCatalog } from '../../test/catalog-suite';

// Every catalog answer is exactly the shape contracts/src/api.ts declares (the SPA's types come
// from there): strict schemas, so a field more or less fails here, not in a browser.
describeCatalog('the catalog API keeps its contract', (ctx) => {
  const get = async (url: string) => (await ctx().request.get(url).expect(200)).body as unknown;
  const first = async (url: string) => {
    const list = (await get(url)) as Array<{ path: string; modelname?: string }>;
    expect(list.length).toBeGreaterThan(0);
    return list[0]!;
  };

  it('listings', async () => {
    z.array(updateItem).parse(await get('/api/updates/1'));
    z.array(photoItem).parse(await get('/api/photos/1'));
    z.array(photoItem).parse(await get('/api/photos-by-date/1'));
    z.array(videoItem).parse(await get('/api/videos/1'));
    z.array(videoItem).parse(await get('/api/videos-by-date/1'));
    z.array(vodItem).parse(await get('/api/vod/1'));
    z.array(modelItem).parse(await get('/api/models/A'));
    z.array(freeSetItem).parse(await get('/api/freephotos/1'));
    z.array(teaserItem).parse(await get('/api/coming-soon'));
  });

  it('details and search', async () => {
    photoSetDetail.parse(await get(`/api/photos/set/${(await first('/api/photos/1')).path}`));
    videoPrename.parse(await get(`/api/videos/prename/${(await first('/api/videos/1')).path}`));
    vodDetail.parse(await get(`/api/vod/prename/${(await first('/api/vod/1')).path}`));
    const model = (await first('/api/photos/1')).modelname!;
    modelDetail.parse(await get(`/api/modelname/${encodeURIComponent(model)}`));
    const found = searchResult.parse(await get('/api/search/a'));
    expect(found.photos.length + found.videos.length + found.vods.length).toBeGreaterThan(0);
  });

  it('errors carry a code from the one list, with its status', async () => {
    for (const url of ['/api/photos/0', '/api/nothing', '/api/vod/prename/no-such-vod']) {
      const res = await ctx().request.get(url);
      expect(ERROR_CODES).toContain(res.body.error.code);
      expect(res.status).toBe(ERROR_STATUS[res.body.error.code as keyof typeof ERROR_STATUS]);
    }
  });
});
