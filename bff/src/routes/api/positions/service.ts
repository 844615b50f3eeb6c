import type { PlayableType } from '@media-site/contracts/playback-layout';
import type { ContinueItem, ContinueWatching } from '@media-site/contracts/playback-api';
import { BadRequestError, ForbiddenError, UnauthenticatedError } from '../../../errors';
import { enforceRateLimit } from '../../../security/rate-limit';
import type { AccountDeps } from '../../../account/deps';
import type { MemberRow } from '../../../account/repository';
import { loadPlayable, playAccess, type PlayAccess, type Playable } from '../playback/service';
import { videoThumbnail, vodThumbnail } from '../shared/media-urls';
import { deletePosition, itemsByIds, positionOf, recentPositions, savePosition } from '../playback/repository';
import { isCompleted, positionView as view } from '../playback/position-view';

const REFUSED: Record<Exclude<PlayAccess, 'granted' | 'sign_in'>, string> = {
  membership_required: 'an active membership is required',
  purchase_required: 'this VOD has not been purchased',
  withdrawn: 'media access has been withdrawn for this account',
};

/** Positions belong to what the member may play: signed in, and entitled like the media service asks. */
async function playableFor(
  deps: AccountDeps,
  member: MemberRow | undefined,
  type: PlayableType,
  path: string,
): Promise<{ member: MemberRow; playable: Playable; durationMs: number | null }> {
  if (!member) throw new UnauthenticatedError();
  const playable = await loadPlayable(deps, type, path);
  const access = await playAccess(deps, member, type, path);
  if (access !== 'granted') throw new ForbiddenError(REFUSED[access as keyof typeof REFUSED] ?? 'not allowed');
  const duration = playable.manifest?.duration;
  return { member, playable, durationMs: duration === undefined ? null : Math.round(duration * 1000) };
}

export async function readPosition(deps: AccountDeps, member: MemberRow | undefined, type: PlayableType, path: string) {
  const { member: m, playable, durationMs } = await playableFor(deps, member, type, path);
  return view(await positionOf(deps.knex, m.id, type, playable.item.id), durationMs);
}

/**
 * Stores where the member is. At most RATE_LIMIT_POSITION_PER_MINUTE writes a minute per member
 * (a player saves every ~10 s and on pause); past the end of a known length is a 400, not a clamp,
 * so a broken client shows up instead of silently marking videos watched.
 */
export async function writePosition(deps: AccountDeps, member: MemberRow | undefined, type: PlayableType, path: string, seconds: number) {
  if (!member) throw new UnauthenticatedError();
  await enforceRateLimit(deps.limiter, `position:${member.id}`, deps.settings.positionWritesPerMinute);
  const { playable, durationMs } = await playableFor(deps, member, type, path);
  // Players report the end a few frames past the container's duration: one second of slack.
  if (durationMs !== null && seconds * 1000 > durationMs + 1000) {
    throw new BadRequestError(`seconds must be from 0 to ${durationMs / 1000} (the length of this video)`);
  }
  const positionMs = Math.round(durationMs === null ? seconds * 1000 : Math.min(seconds * 1000, durationMs));
  return view(
    await savePosition(deps.knex, member.id, { type, contentId: playable.item.id, positionMs, durationMs }, deps.now()),
    durationMs,
  );
}

export async function forgetPosition(deps: AccountDeps, member: MemberRow | undefined, type: PlayableType, path: string): Promise<void> {
  if (!member) throw new UnauthenticatedError();
  await enforceRateLimit(deps.limiter, `position:${member.id}`, deps.settings.positionWritesPerMinute);
  const playable = await loadPlayable(deps, type, path);
  await deletePosition(deps.knex, member.id, type, playable.item.id);
}

export const CONTINUE_WATCHING_LIMIT = 20;

/** "Continue watching": the member's unfinished videos and VODs, most recent first. */
export async function continueWatching(deps: AccountDeps, member: MemberRow | undefined): Promise<ContinueWatching> {
  if (!member) throw new UnauthenticatedError();
  const positions = (await recentPositions(deps.knex, member.id, CONTINUE_WATCHING_LIMIT * 3)).filter(
    (p) => !isCompleted(p.positionMs, p.durationMs),
  );
  const ids = (type: PlayableType) => positions.filter((p) => p.type === type).map((p) => p.contentId);
  const [videos, vods] = await Promise.all([itemsByIds(deps.knex, 'video', ids('video')), itemsByIds(deps.knex, 'vod', ids('vod'))]);
  const items: ContinueItem[] = [];
  for (const p of positions) {
    const item = (p.type === 'video' ? videos : vods).get(p.contentId);
    if (!item) continue;
    items.push({
      type: p.type,
      path: item.path,
      updatename: item.updatename,
      modelname: item.modelname,
      thumbnail: p.type === 'video' ? videoThumbnail(item.path) : vodThumbnail(item.path),
      seconds: p.positionMs / 1000,
      duration: p.durationMs === null ? null : p.durationMs / 1000,
      updatedAt: new Date(p.updatedAt).toISOString(),
    });
    if (items.length === CONTINUE_WATCHING_LIMIT) break;
  }
  return { items };
}
