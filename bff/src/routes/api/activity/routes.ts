import type Router from '@koa/router';
import { ACTIVITY_BODY_LIMIT, activityBody, type ActivityEvent } from '@media-site/contracts/content-stats';
import type { StatCounter } from '@media-site/db/stats';
import { countActivity } from '../shared/count-stat';
import { ForbiddenError, NotFoundError, UnauthenticatedError } from '../../../errors';
import { readBody } from '../../../security/body';
import { requireSameOrigin } from '../../../security/origin';
import { enforceRateLimit } from '../../../security/rate-limit';
import type { AccountDeps } from '../../../account/deps';
import { currentMember } from '../auth/session';
import { parseBody } from '../shared/parse';
import { folderParam, parseParam } from '../shared/params';
import { playableTypeParam } from '../playback/schema';
import { playableItem } from '../playback/repository';
import { playAccess } from '../playback/service';

/** Reports one member's pages may send a minute: a few per item opened, room for several tabs. */
export const ACTIVITY_REPORTS_PER_MINUTE = 60;

const COUNTER: Record<ActivityEvent, StatCounter> = { play: 'plays', complete: 'completions' };

/**
 * What a member's player reports for "what sells" (the console's Stats): a play started, played to
 * the end (downloads count where their links are minted, auth/service.ts). Only a member the item is granted to counts (the same rule as the
 * player's), each event once per member, item and day (a reload or a replay adds nothing); nothing about the member is stored, only the day's count.
 */
export function activityRoutes(router: Router, deps: AccountDeps): void {
  router.post('/activity/:type/:folder', requireSameOrigin(deps.settings.allowedOrigins), readBody(ACTIVITY_BODY_LIMIT), async (ctx) => {
    const type = parseParam(playableTypeParam, ctx.params.type);
    const folder = parseParam(folderParam, ctx.params.folder);
    const member = await currentMember(ctx, deps);
    if (!member) throw new UnauthenticatedError();
    await enforceRateLimit(deps.limiter, `activity:${member.id}`, ACTIVITY_REPORTS_PER_MINUTE);
    const { event } = parseBody(activityBody, ctx);
    ctx.set('Cache-Control', 'no-store');
    // Released and not taken down, as the player page shows it.
    const item = await playableItem(deps.knex, type, folder);
    if (!item) throw new NotFoundError(`no ${type === 'vod' ? 'VOD' : 'video'} in folder ${folder}`);
    if ((await playAccess(deps, member, type, folder)) !== 'granted') throw new ForbiddenError('this item is not yours to play');
    await countActivity(deps, { type, id: item.id }, COUNTER[event], { memberId: member.id });
    ctx.status = 204;
  });
}
