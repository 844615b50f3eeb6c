import {
  SAVED_LIMIT,
  SAVED_RELEASES_LIMIT,
  type SavedAnswer,
  type SavedItem,
  type SavedList,
  type SavedReleases,
  type SavedType,
} from '@media-site/contracts/saved-api';
import { countActivity } from '../shared/count-stat';
import { ConflictError, NotFoundError, UnauthenticatedError } from '../../../errors';
import { enforceRateLimit } from '../../../security/rate-limit';
import type { AccountDeps } from '../../../account/deps';
import type { MemberRow } from '../../../account/repository';
import { photoSetThumbnail, videoThumbnail, vodThumbnail } from '../shared/media-urls';
import { modelCovers, shownModelByName } from '../models/repository';
import { coverUrl } from '../models/service';
import {
  contentByPath,
  deleteSaved,
  insertSaved,
  modelByName,
  modelsByIds,
  newestOfModels,
  savedAt,
  savedCount,
  savedRows,
  visibleContentByIds,
  type SavedContent,
  type SavedContentType,
} from './repository';

/** Saves and removals a minute per member: a person clicks a few hearts; a script is stopped here. */
export const SAVED_WRITES_PER_MINUTE = 60;

const THUMBNAIL: Record<SavedContentType, (path: string) => string> = {
  photo: photoSetThumbnail,
  video: videoThumbnail,
  vod: vodThumbnail,
};
const NAMED: Record<SavedType, string> = { photo: 'photo set', video: 'video', vod: 'VOD', model: 'model' };

function signedIn(member: MemberRow | undefined): MemberRow {
  if (!member) throw new UnauthenticatedError();
  return member;
}

const contentItem = (type: SavedContentType, c: SavedContent, at: number): SavedItem => ({
  type,
  key: c.path,
  title: c.updatename,
  modelname: c.modelname,
  thumbnail: THUMBNAIL[type](c.path),
  savedAt: new Date(at).toISOString(),
});

/**
 * My list, newest first. Any signed-in member keeps one, with or without an active membership (the
 * pages say what is locked). Items the catalog does not show (taken down, scheduled for later, a
 * model with no released item) are left out at read time and come back if restored.
 */
export async function savedList(deps: AccountDeps, member: MemberRow | undefined): Promise<SavedList> {
  const m = signedIn(member);
  const rows = await savedRows(deps.knex, m.id, SAVED_LIMIT);
  const ids = (type: SavedType) => rows.filter((r) => r.type === type).map((r) => r.contentId);
  const [photos, videos, vods, models] = await Promise.all([
    visibleContentByIds(deps.knex, 'photo', ids('photo')),
    visibleContentByIds(deps.knex, 'video', ids('video')),
    visibleContentByIds(deps.knex, 'vod', ids('vod')),
    modelsByIds(deps.knex, ids('model')),
  ]);
  const covers = await modelCovers(deps.knex, models);
  const byModel = new Map(models.map((model) => [model.id, model]));
  const content = { photo: photos, video: videos, vod: vods };
  const items: SavedItem[] = [];
  for (const r of rows) {
    if (r.type === 'model') {
      const model = byModel.get(r.contentId);
      const cover = covers.get(r.contentId);
      if (model && cover)
        items.push({
          type: 'model',
          key: model.modelname,
          title: model.modelname,
          modelname: null,
          thumbnail: coverUrl(cover),
          savedAt: new Date(r.savedAt).toISOString(),
        });
      continue;
    }
    const found = content[r.type].get(r.contentId);
    if (found) items.push(contentItem(r.type, found, r.savedAt));
  }
  return { items, limit: SAVED_LIMIT };
}

/** What `key` names, as the catalog shows it now; a 404 for anything else. */
async function shownItem(deps: AccountDeps, type: SavedType, key: string): Promise<{ id: number; item: (at: number) => SavedItem }> {
  if (type === 'model') {
    const model = await shownModelByName(deps.knex, key);
    // Exact on MySQL's case-insensitive collation too, as the model page is.
    if (model && model.modelname === key) {
      const cover = (await modelCovers(deps.knex, [model])).get(Number(model.id));
      return {
        id: Number(model.id),
        item: (at) => ({ type, key, title: key, modelname: null, thumbnail: coverUrl(cover), savedAt: new Date(at).toISOString() }),
      };
    }
  } else {
    const content = await contentByPath(deps.knex, type, key);
    if (content) return { id: content.id, item: (at) => contentItem(type, content, at) };
  }
  throw new NotFoundError(`no ${NAMED[type]} named ${key}`);
}

/**
 * Saves an item the catalog shows. Saving it twice is one save (it keeps its place); a full list
 * (SAVED_LIMIT) refuses a new item with a 409 that says to remove one first.
 */
export async function saveItem(deps: AccountDeps, member: MemberRow | undefined, type: SavedType, key: string): Promise<SavedAnswer> {
  const m = signedIn(member);
  await enforceRateLimit(deps.limiter, `saved:${m.id}`, SAVED_WRITES_PER_MINUTE);
  const shown = await shownItem(deps, type, key);
  const already = await savedAt(deps.knex, m.id, type, shown.id);
  if (already !== undefined) return { item: shown.item(already) };
  if ((await savedCount(deps.knex, m.id)) >= SAVED_LIMIT)
    throw new ConflictError(`My list holds at most ${SAVED_LIMIT} items: remove one before saving another`);
  const now = deps.now();
  await insertSaved(deps.knex, m.id, type, shown.id, now);
  const at = (await savedAt(deps.knex, m.id, type, shown.id)) ?? now;
  // A new save (a racing second one found its row and stored nothing) counts in the daily stats; a model's is a follow.
  if (at === now) await countActivity(deps, { type, id: shown.id }, 'saves');
  return { item: shown.item(at) };
}

/** Removes an item, shown or hidden (a taken-down item can still leave a list); an unknown one is already gone. */
export async function removeItem(deps: AccountDeps, member: MemberRow | undefined, type: SavedType, key: string): Promise<void> {
  const m = signedIn(member);
  await enforceRateLimit(deps.limiter, `saved:${m.id}`, SAVED_WRITES_PER_MINUTE);
  const found = type === 'model' ? await modelByName(deps.knex, key) : await contentByPath(deps.knex, type, key, false);
  if (found) await deleteSaved(deps.knex, m.id, type, found.id);
}

/**
 * "New from your models" on home: the newest photo sets, videos and VODs (released, not taken
 * down) of the models in My list, newest first. Saving a model is following her.
 */
export async function savedReleases(deps: AccountDeps, member: MemberRow | undefined): Promise<SavedReleases> {
  const m = signedIn(member);
  const models = (await savedRows(deps.knex, m.id, SAVED_LIMIT)).filter((r) => r.type === 'model').map((r) => r.contentId);
  const rows = await newestOfModels(deps.knex, models, SAVED_RELEASES_LIMIT);
  rows.sort((a, b) => (a.datetoupload === b.datetoupload ? b.id - a.id : a.datetoupload < b.datetoupload ? 1 : -1));
  return {
    items: rows.slice(0, SAVED_RELEASES_LIMIT).map((r) => ({
      type: r.type,
      key: r.path,
      title: r.updatename,
      modelname: r.modelname,
      date: r.datetoupload,
      thumbnail: THUMBNAIL[r.type](r.path),
    })),
  };
}
