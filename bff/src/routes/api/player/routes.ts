import type Router from '@koa/router';
import { PLAYER_REPORT_BODY_LIMIT, playerReport } from '@media-site/contracts/player-report';
import { UnauthenticatedError } from '../../../errors';
import { countPlayerEvents } from '../../../player-metrics';
import { readBody } from '../../../security/body';
import { requireSameOrigin } from '../../../security/origin';
import { enforceRateLimit } from '../../../security/rate-limit';
import type { AccountDeps } from '../../../account/deps';
import { currentMember } from '../auth/session';
import { parseBody } from '../shared/parse';

/**
 * Reports a member's player may send a minute. A player sends a batch every 30 s while there is
 * something to say and one when the page is hidden: 12 leaves room for several tabs, and bounds what
 * one session can add to the histograms.
 */
export const PLAYER_REPORTS_PER_MINUTE = 12;

/**
 * Playback quality from members' players: counted into the player histograms (player-metrics.ts)
 * and not stored. Signed-in members only, each within its own budget, so nobody can fill the
 * dashboards with made-up stalls; the body is bounded before it is read.
 */
export function playerRoutes(router: Router, deps: AccountDeps): void {
  router.post('/player/reports', requireSameOrigin(deps.settings.allowedOrigins), readBody(PLAYER_REPORT_BODY_LIMIT), async (ctx) => {
    const member = await currentMember(ctx, deps);
    if (!member) throw new UnauthenticatedError();
    await enforceRateLimit(deps.limiter, `player-report:${member.id}`, PLAYER_REPORTS_PER_MINUTE);
    const { events } = parseBody(playerReport, ctx);
    countPlayerEvents(events, ctx.get('User-Agent'));
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 204;
  });
}
