import type { ModelDetail, ModelItem } from '@media-site/contracts/api';
import type { CachedBody } from '../../../cache/catalog-cache';
import { NotFoundError } from '../../../errors';
import type { ApiDeps } from '../deps';
import { countOf, durationOf, previewOf } from '../shared/facts';
import { photoSetThumbnail, videoThumbnail, vodThumbnail } from '../shared/media-urls';
import { contentOfModel, modelByName, modelsByInitial, type ModelContentRow } from './repository';

/** A model page lists at most this many sets of each type, newest first. */
export const MODEL_DETAIL_LIMIT = 1000;

export function modelList({ knex, cache }: ApiDeps, letter: string): Promise<CachedBody> {
  return cache.get(`models:${letter}`, async () =>
    (await modelsByInitial(knex, letter)).map((m): ModelItem => ({ modelname: m.modelname, thumbnail: m.thumbnail })),
  );
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
    const model = await modelByName(knex, name);
    // MySQL's collation would also match "model a1" for "Model A1"; SQLite would not. Be exact on both.
    if (!model || model.modelname !== name) throw new NotFoundError(`no model named ${name}`);
    const [photos, videos, vods] = await Promise.all([
      contentOfModel(knex, 'photosets', model.id, MODEL_DETAIL_LIMIT),
      contentOfModel(knex, 'videos', model.id, MODEL_DETAIL_LIMIT),
      contentOfModel(knex, 'vods', model.id, MODEL_DETAIL_LIMIT),
    ]);
    const detail: ModelDetail = {
      modelname: model.modelname,
      thumbnail: model.thumbnail,
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
