import type { Knex } from 'knex';
import { vodDownloadName } from '@media-site/contracts/download-name';
import { hashPassword, verifyPassword } from '@media-site/db/members/password';
import { BadRequestError, ForbiddenError } from '../../../errors';
import { enforceRateLimit } from '../../../security/rate-limit';
import { createSession } from '../../../security/sessions';
import { ACCOUNT_WINDOW_SECONDS } from '../auth/limits';
import { memberView } from '../auth/service';
import type { AccountDeps } from '../members/deps';
import { accessWithdrawn } from '../members/entitlements';
import type { MemberRow } from '../members/repository';
import type { ChangePasswordBody } from './schema';

async function boughtVods(db: Knex, memberId: number) {
  const rows: Record<string, unknown>[] = await db('subscriptions as s')
    .join('vods as v', 'v.id', 's.vod_id')
    .where({ 's.member_id': memberId, 's.kind': 'vod', 's.status': 'active' })
    .select('v.path', 'v.updatename', 'v.prename', 'v.format', 'v.datetoupload')
    .orderBy('v.path');
  return rows.map((r) => {
    const naming = { path: String(r.path), prename: String(r.prename), format: Number(r.format), datetoupload: String(r.datetoupload) };
    return { path: naming.path, updatename: String(r.updatename), download: `/members/vod/${naming.path}/${vodDownloadName(naming)}` };
  });
}

/** Rebilling is on while a membership subscription is still `active` (a cancellation moves it to `cancelled`). */
async function renews(db: Knex, memberId: number): Promise<boolean> {
  return (await db('subscriptions').where({ member_id: memberId, kind: 'membership', status: 'active' }).first('id')) !== undefined;
}

/** GET /api/account: what /api/me says, plus whether the membership rebills and the bought VODs by title. */
export async function accountView(deps: AccountDeps, member: MemberRow) {
  const view = await memberView(deps, member);
  const withdrawn = accessWithdrawn(member);
  return {
    ...view,
    membership: { ...view.membership, renews: !withdrawn && view.membership.active && (await renews(deps.knex, member.id)) },
    vodItems: withdrawn ? [] : await boughtVods(deps.knex, member.id),
  };
}

/**
 * Current password required. Limits as for sign-in guesses: per address a minute (routes.ts, before
 * the body is read), per member per 15 minutes. Every other session of the member ends; this
 * browser gets a fresh session.
 */
export async function changePassword(deps: AccountDeps, member: MemberRow, input: ChangePasswordBody): Promise<string> {
  const { limiter, settings } = deps;
  await enforceRateLimit(limiter, `pwchange:member:${member.id}`, settings.loginPerAccount, ACCOUNT_WINDOW_SECONDS, 'too many password changes, try again in 15 minutes');
  if (!(await verifyPassword(input.currentPassword, member.password_hash))) throw new ForbiddenError('the current password is wrong');
  if (input.newPassword === input.currentPassword) throw new BadRequestError('newPassword: must differ from the current password');
  const hash = await hashPassword(input.newPassword);
  const now = deps.now();
  await deps.knex.transaction(async (trx) => {
    await trx('members').where({ id: member.id }).update({ password_hash: hash });
    await trx('member_sessions').where({ member_id: member.id }).delete();
  });
  return createSession(deps.knex, member.id, now, settings.sessionTtlHours * 3_600_000);
}

/** Ends every session of the member, on every browser. */
export async function signOutEverywhere(deps: AccountDeps, member: MemberRow): Promise<number> {
  return deps.knex('member_sessions').where({ member_id: member.id }).delete();
}
