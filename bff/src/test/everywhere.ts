import type supertest from 'supertest';
import type { Catalog } from './fixtures';

type Json = Record<string, unknown>;
const paths = (items: unknown) => (items as Json[]).map((i) => i.path);

/**
 * What a visitor sees of the fixture catalog's first video, photo set, VOD and free set `free-01`:
 * every listing page, the updates feed, the model page, search, and the details' statuses. The
 * takedown and scheduled-release tests compare it before and after a change.
 */
export async function seenEverywhere(request: ReturnType<typeof supertest>, catalog: Catalog) {
  const get = async (path: string) => (await request.get(path)).body as unknown;
  const video = catalog.videos[0]!;
  const photo = catalog.photos[0]!;
  const vod = catalog.vods[0]!;
  const allPages = async (route: string, pages: number) => {
    const out: unknown[] = [];
    for (let p = 1; p <= pages; p++) out.push(...paths(await get(`${route}/${p}`)));
    return out;
  };
  const model = (await get(`/api/modelname/${encodeURIComponent(video.modelname)}`)) as Json;
  const search = async (term: string) => (await get(`/api/search/${encodeURIComponent(term)}`)) as Json;
  return {
    videos: [...(await allPages('/api/videos', 2)), ...(await allPages('/api/videos-by-date', 2))],
    photos: [...(await allPages('/api/photos', 4)), ...(await allPages('/api/photos-by-date', 4))],
    vods: await allPages('/api/vod', 2),
    updates: await allPages('/api/updates', 3),
    modelVideos: paths(model.videos),
    searchVideos: paths((await search(video.updatename)).videos),
    searchPhotos: paths((await search(photo.updatename)).photos),
    searchVods: paths((await search(vod.updatename)).vods),
    videoDetail: (await request.get(`/api/videos/prename/${video.path}`)).status,
    vodDetail: (await request.get(`/api/vod/prename/${vod.path}`)).status,
    photoFiles: (await request.get(`/api/thumbnails/${photo.path}`)).status,
    freeFiles: (await request.get('/api/freethumbnails/free-01')).status,
  };
}

export type Seen = Awaited<ReturnType<typeof seenEverywhere>>;
