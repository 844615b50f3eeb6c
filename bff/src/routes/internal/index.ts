import type Router from '@koa/router';
import { exactRouter } from '../exact-router';
import { ForbiddenError } from '../../errors';
import type { AccountDeps } from '../../account/deps';
import { accessValidFromSince, revokedMemberIds } from '../../account/repository';
import { takedownListRoute } from './takedowns';
import { listPollRecorder, sendInternalList } from './list';

/**
 * Outside /api, so the front door never proxies it: the media service polls it every 5 s (ETag/304) for
 * members whose tokens and links must stop working before they expire (chargeback, refund, void), and
 * per member the time (unix seconds) before which nothing minted counts any more (sign out everywhere,
 * a password change, a disable, a chargeback): `{ members: [...], validFrom: { "<id>": <s> } }`.
 */
export function internalRoutes(deps: AccountDeps): Router {
  const recordPoll = listPollRecorder(deps.knex, deps.logger, deps.now);
  return takedownListRoute(exactRouter(), deps.knex, recordPoll).get('/internal/media-revocations', async (ctx) => {
    if (ctx.get('X-Forwarded-For')) throw new ForbiddenError('internal endpoint');
    const s = deps.settings;
    // Anything revoked longer ago than a link or token can live needs no listing.
    const horizon = deps.now() - s.downloadLinkTtlHours * 3_600_000 - s.mediaTokenTtlSeconds * 1000;
    const [members, validFrom] = await Promise.all([revokedMemberIds(deps.knex, horizon), accessValidFromSince(deps.knex, horizon)]);
    sendInternalList(ctx, { members: members.map(String), validFrom });
    recordPoll(ctx, 'revocations');
  });
}
