import { parseManifest, type Manifest } from '@media-site/db/encode';
import { previewUrl, renditionUrl, type PlayableType } from '@media-site/contracts/playback-layout';
import type { Playback, PlayAccess, PlayState, Rendition } from '@media-site/contracts/playback-api';
import { NotFoundError } from '../../../errors';
import type { AccountDeps } from '../../../account/deps';
import { entitlementsOf, hasActiveMembership } from '../../../account/entitlements';
import type { MemberRow } from '../../../account/repository';
import { positionView } from './position-view';
import { downloadChoices, originalPath } from './downloads';
import { encodeState, playableItem, positionOf, type PlayableRow } from './repository';

/** What the session may do with the item, and the encoding as the player shows it (contracts/src/playback-api.ts). */
export type { PlayAccess, PlayState };

export interface Playable {
  item: PlayableRow;
  manifest: Manifest | null;
  state: PlayState;
  progress: number | null;
}

/** The same rule as the media service's for the original (and so for its renditions). */
export async function playAccess(deps: AccountDeps, member: MemberRow | undefined, type: PlayableType, path: string): Promise<PlayAccess> {
  if (!member) return 'sign_in';
  if (member.revoked_at !== null || member.disabled_at !== null) return 'withdrawn';
  const e = await entitlementsOf(deps.knex, member);
  if (type === 'vod') return e.vodPaths.includes(path) ? 'granted' : 'purchase_required';
  return hasActiveMembership(e, deps.now()) ? 'granted' : 'membership_required';
}

export async function loadPlayable(deps: AccountDeps, type: PlayableType, path: string): Promise<Playable> {
  const [item, job] = await Promise.all([playableItem(deps.knex, type, path), encodeState(deps.knex, type, path)]);
  if (!item) throw new NotFoundError(`no ${type === 'vod' ? 'VOD' : 'video'} in folder ${path}`);
  const manifest = parseManifest(job?.manifest);
  const state: PlayState = manifest ? 'ready' : !job ? 'unavailable' : job.status === 'failed' ? 'failed' : 'preparing';
  return { item, manifest, state, progress: state === 'preparing' && job ? job.progress : null };
}

/**
 * While an item has no renditions (queued, encoding, failed, never queued), its original when it is
 * an MP4: most are H.264/AAC, which every browser plays by Range as it does a rendition; the player
 * says what it plays, and one the browser cannot decode ends in the player's own error, with the
 * download still below. Its size is not known before the encoder probes it (0).
 */
function playableOriginal(type: PlayableType, item: PlayableRow): Rendition[] {
  const url = originalPath(type, item);
  if (!/\.mp4$/i.test(url)) return [];
  return [{ label: 'Original', url, width: 0, height: 0, bitrate: 0, type: 'video/mp4' }];
}

/** GET /api/playback/{type}/{folder}: everything the player page needs, for this session. */
export async function playbackView(deps: AccountDeps, member: MemberRow | undefined, type: PlayableType, path: string): Promise<Playback> {
  const { item, manifest, state, progress } = await loadPlayable(deps, type, path);
  const access = await playAccess(deps, member, type, path);
  const granted = access === 'granted';
  return {
    type,
    path: item.path,
    updatename: item.updatename,
    modelname: item.modelname,
    access,
    state,
    progress,
    duration: manifest?.duration ?? null,
    poster: manifest ? previewUrl(type, item.path, 'poster') : null,
    thumbnails: manifest ? previewUrl(type, item.path, 'thumbnails') : null,
    trailer: manifest ? previewUrl(type, item.path, 'trailer') : null,
    renditions: !granted
      ? []
      : manifest
        ? manifest.renditions.map((r) => ({
            label: r.label,
            url: renditionUrl(type, item.path, r.label),
            width: r.width,
            height: r.height,
            bitrate: r.bitrate,
            type: r.mime,
          }))
        : playableOriginal(type, item),
    download: granted ? originalPath(type, item) : null,
    // Every size to download: the original, then each rendition, largest first (none unless granted).
    downloads: granted ? downloadChoices(type, item, manifest) : [],
    position:
      member && granted
        ? positionView(await positionOf(deps.knex, member.id, type, item.id), manifest ? Math.round(manifest.duration * 1000) : null)
        : null,
  };
}
