import type { ModelDetail, ModelItem } from '@media-site/contracts/api';
import type { CachedBody } from '../../../cache/catalog-cache';
import { NotFoundError } from '../../../errors';
import type { ApiDeps } from '../deps';
import type { ContentTable } from '../shared/content-page';
import { countOf, durationOf, previewOf } from '../shared/facts';
import { photoSetThumbnail, videoThumbnail, vodThumbnail } from '../shared/media-urls';
import { contentOfModel, modelCovers, modelsByInitial, shownModelByName, type Cover, type ModelContentRow } from './repository';

/** A model page lists at most this many sets of each type, newest first. */
export const MODEL_DETAIL_LIMIT = 1000;

const COVER_URL: Record<ContentTable, (path: string) => string> = {
  photosets: photoSetThumbnail,
  videos: videoThumbnail,
  vods: vodThumbnail,
};
/** A model's thumbnail: the cover of a released item of hers (repository.ts, modelCovers), or none. */
export const coverUrl = (cover: Cover | undefined): string | null => (cover ? COVER_URL[cover.table](cover.path) : null);

export function modelList({ knex, cache }: ApiDeps, letter: string): Promise<CachedBody> {
  return cache.get(`models:${letter}`, async () => {
    const models = await modelsByInitial(knex, letter);
    const covers = await modelCovers(knex, models);
    // A model with no cover has no released item: she is listed once a release shows one.
    return models
      .filter((m) => covers.has(Number(m.id)))
      .map((m): ModelItem => ({ modelname: m.modelname, thumbnail: coverUrl(covers.get(Number(m.id))) }));
  });
}

const detailFields = (row: ModelContentRow, thumbnail: string) => ({
  path: row.path,
  updatename: row.updatename,
  datetoupload: row.datetoupload,
  thumbnail,
});

const clipItem = (type: 'video' | 'vod', thumbnail: (path: string) => string) => (row: ModelContentRow) => ({
  ...detailFields(row, thumbnail(row.path)),
  duration: durationOf(row.duration),
  preview: previewOf(type, row.path, row.encoded),
});

export function modelDetail({ knex, cache }: ApiDeps, name: string): Promise<CachedBody> {
  return cache.get(`model:${name}`, async () => {
    const model = await shownModelByName(knex, name);
    // MySQL's collation would also match "model a1" for "Model A1"; SQLite would not. Be exact on both.
    // A model with no released item answers as a name that is no model's.
    if (!model || model.modelname !== name) throw new NotFoundError(`no model named ${name}`);
    const [photos, videos, vods, covers] = await Promise.all([
      contentOfModel(knex, 'photosets', model.id, MODEL_DETAIL_LIMIT),
      contentOfModel(knex, 'videos', model.id, MODEL_DETAIL_LIMIT),
      contentOfModel(knex, 'vods', model.id, MODEL_DETAIL_LIMIT),
      modelCovers(knex, [model]),
    ]);
    const detail: ModelDetail = {
      modelname: model.modelname,
      thumbnail: coverUrl(covers.get(Number(model.id))),
      photos: photos.map((row) => ({
        photo_id: Number(row.id),
        ...detailFields(row, photoSetThumbnail(row.path)),
        photocount: countOf(row.photocount),
      })),
      videos: videos.map((row) => ({ video_id: Number(row.id), ...clipItem('video', videoThumbnail)(row) })),
      vods: vods.map((row) => ({ vod_id: Number(row.id), ...clipItem('vod', vodThumbnail)(row) })),
    };
    return detail;
  });
}
