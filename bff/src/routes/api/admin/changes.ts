import type Router from '@koa/router';
import type { MemberEnabled, MemberSessionsEnded } from '@media-site/contracts/admin';
import type { ContentChanged } from '@media-site/contracts/admin-content';
import type { Context } from 'koa';
import { z } from 'zod';
import { enableMember, endMemberSessions } from '@media-site/db/members';
import { contentRefOf, restore, takeDown } from '@media-site/db/content';
import { reportByReference, ReportRuleError } from '@media-site/db/moderation';
import { USERNAME } from '@media-site/contracts/member-rules';
import { BadRequestError } from '../../../errors';
import type { AccountDeps } from '../../../account/deps';
import { readBody } from '../../../security/body';
import { parseBody } from '../shared/parse';
import { parseParam } from '../shared/params';
import { contentChangeBody } from './schema';
import { requireAdmin, signedInAdmin } from './session';

// The console's changes beyond sign-in: takedowns and restores for moderators, enabling
// a member and ending their sessions for support. Each goes through the same db service as the
// operator CLI (`catalog takedown|restore`, `member enable|signout-all`) and appends its audit row in
// the same transaction. The catalog generation they bump reaches every bff at its next poll.

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;

const actorOf = (ctx: Context) => ({ actor: signedInAdmin(ctx).name, address: ctx.ip });

/** A member's username in the path. */
export const memberUsername = z.string().regex(USERNAME, 'not a username');

/** The :username of a member route, or 400. */
export const usernameParam = (ctx: Context): string => parseParam(memberUsername, ctx.params.username);

async function contentChange(ctx: Context, deps: AccountDeps, action: 'takedown' | 'restore'): Promise<void> {
  const { path, reason, report } = parseBody(contentChangeBody, ctx);
  const ref = contentRefOf(path);
  if (!ref)
    throw new BadRequestError(
      'path: not a photo set, free photo set, video or VOD (use /photos/<path>, /freephotos/<path>, /video/<path> or /vod/<path>)',
    );
  let reportReference: string | undefined;
  if (report !== undefined) {
    const found = await reportByReference(deps.knex, report);
    if (!found) throw new ReportRuleError('bad_input', `report: no report ${report}`);
    reportReference = found.reference;
  }
  const audit = actorOf(ctx);
  const change = { ref, actor: audit.actor, reason, reportReference, now: deps.now(), audit };
  const generation = await (action === 'takedown' ? takeDown : restore)(deps.knex, change);
  ctx.body = { type: ref.type, path: ref.path, generation } satisfies ContentChanged;
}

/** POST /api/admin/takedowns, /restores, /members/:username/enable and /signout-all. */
export function adminChangeRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  router
    .post('/admin/takedowns', origin, requireAdmin(deps, 'takedowns'), readBody(), (ctx) => contentChange(ctx, deps, 'takedown'))
    .post('/admin/restores', origin, requireAdmin(deps, 'takedowns'), readBody(), (ctx) => contentChange(ctx, deps, 'restore'))
    .post('/admin/members/:username/enable', origin, requireAdmin(deps, 'members'), async (ctx) => {
      const name = usernameParam(ctx);
      const { wasDisabled, wasRevoked } = await enableMember(deps.knex, name, { ...actorOf(ctx), now: deps.now() });
      ctx.body = { username: name, wasDisabled, wasRevoked } satisfies MemberEnabled;
    })
    .post('/admin/members/:username/signout-all', origin, requireAdmin(deps, 'members'), async (ctx) => {
      const name = usernameParam(ctx);
      const { sessions } = await endMemberSessions(deps.knex, name, { ...actorOf(ctx), now: deps.now() });
      ctx.body = { username: name, sessionsEnded: sessions } satisfies MemberSessionsEnded;
    });
}
