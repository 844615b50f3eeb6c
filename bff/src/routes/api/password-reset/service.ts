import type { Knex } from 'knex';
import { enqueueMail, type MailSite } from '@media-site/db/mail';
import { passwordChangedMail, passwordResetMail } from '@media-site/db/mail/templates';
import { createSession, endSessionsOf, hashPassword } from '@media-site/db/members';
import { BadRequestError } from '../../../errors';
import { nudgeMail } from '../../../mail/worker';
import type { AccountDeps } from '../../../account/deps';
import {
  bumpAccessValidFrom,
  lockMember,
  memberById,
  memberByUsername,
  memberIdsWithEmail,
  setPasswordHash,
  type MemberRow,
} from '../../../account/repository';
import type { PasswordResetBody, PasswordResetConfirmBody } from './schema';
import type { SignInClient } from '../auth/limits';
import { chargeResetRequest, LIVE_LINKS_FROM_UNKNOWN_BROWSERS, LIVE_LINKS_MAX } from './limits';
import { insertReset, liveLinkCount, liveResetMemberId, spendAllLinks, spendLink } from './repository';
import { LINK_TOKEN, linkTokenHash, newLinkToken } from './tokens';
import type { MessageAnswer } from '@media-site/contracts/member-api';

export const RESET_TTL_MS = 3_600_000;
/** An address shared by several accounts gets one mail per account, for this many at most. */
export const ACCOUNTS_PER_ADDRESS_MAX = 5;
/**
 * The answer takes at least this long whichever way it went: a matching account costs a transaction
 * and a mail more than an unknown one, and the difference must not say which it was.
 */
export const RESET_ANSWER_FLOOR_MS = 250;

export const RESET_ANSWER = {
  message: 'If an account matches, we have sent a link to its e-mail address. It works for one hour.',
} as const satisfies MessageAnswer;
export const RESET_REFUSED = 'This reset link has expired or was already used. Ask for a new one.';

/**
 * The "your password was changed" notice, in the transaction of the change (signed in or by a reset
 * link). Members the operator added without an address (`member add` without --email) get none.
 */
export async function passwordChangedNotice(
  trx: Knex,
  site: MailSite,
  member: Pick<MemberRow, 'id' | 'username' | 'email'>,
  now: number,
): Promise<void> {
  if (member.email === '') return;
  await enqueueMail(
    trx,
    { key: `pwchanged:${member.id}:${now}`, to: member.email, template: 'password-changed', ...passwordChangedMail(site, member) },
    now,
  );
}

/** Accounts a login names: one by username (any letter case), or those with that e-mail address (any letter case, a few). */
async function accountsNamed(db: Knex, login: string): Promise<MemberRow[]> {
  if (!login.includes('@')) {
    const member = await memberByUsername(db, login);
    return member ? [member] : [];
  }
  const ids = await memberIdsWithEmail(db, login, ACCOUNTS_PER_ADDRESS_MAX);
  const members = await Promise.all(ids.map((id) => memberById(db, id)));
  return members.filter((m): m is MemberRow => m !== undefined);
}

/**
 * One account's reset link, unless it holds its most live links already (limits.ts: fewer for a
 * request from an unknown browser). Older links stay good: a request, anyone's, cancels none. The
 * mail goes in the same transaction. False when nothing was issued.
 */
async function issueReset(deps: AccountDeps, member: MemberRow, now: number, fromKnownBrowser: boolean): Promise<boolean> {
  const { token, hash } = newLinkToken();
  const cap = fromKnownBrowser ? LIVE_LINKS_MAX : LIVE_LINKS_FROM_UNKNOWN_BROWSERS;
  const issued = await deps.knex.transaction(async (trx) => {
    // The member's row, locked: two requests at once cannot both take the last place.
    await lockMember(trx, member.id);
    if ((await liveLinkCount(trx, 'password_resets', member.id, now)) >= cap) return false;
    await insertReset(trx, { hash, memberId: member.id, now, ttlMs: RESET_TTL_MS });
    const mail = passwordResetMail(deps.settings.site, { username: member.username, token });
    await enqueueMail(trx, { key: `reset:${hash.slice(0, 32)}`, to: member.email, template: 'password-reset', ...mail }, now);
    return true;
  });
  // Committed: the worker sends it now rather than at its next poll.
  if (issued) nudgeMail();
  return issued;
}

/**
 * `POST /api/password-reset`: a link to every matching account that may sign in, within the
 * budgets of limits.ts (past the unknown browsers' ones: 403 challenge_required unless `altcha`
 * solves one, whether or not an account matches). Unknown, disabled, revoked or at its live-link
 * cap: the same answer, after the same minimum time.
 */
export async function requestPasswordReset(deps: AccountDeps, input: PasswordResetBody, client: SignInClient): Promise<void> {
  const started = Date.now();
  const now = deps.now();
  try {
    const accounts = await accountsNamed(deps.knex, input.login);
    const knownAs = await chargeResetRequest(
      deps,
      input.login.toLowerCase(),
      accounts.map((m) => m.username),
      client,
      input.altcha,
    );
    for (const member of accounts) {
      // No link for an account that may not sign in, or that has no address to send it to.
      if (member.disabled_at !== null || member.revoked_at !== null || member.email === '') continue;
      const known = member.username.toLowerCase() === knownAs;
      if (!(await issueReset(deps, member, now, known)))
        deps.logger.warn({ member: member.id, known }, 'password reset: no mail, the account holds its most live links');
    }
  } finally {
    const wait = started + RESET_ANSWER_FLOOR_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** The member a live (unused, unexpired) reset token belongs to; anything else is the one refusal. */
async function liveReset(db: Knex, token: string, now: number): Promise<{ hash: string; memberId: number }> {
  if (!LINK_TOKEN.test(token)) throw new BadRequestError(RESET_REFUSED);
  const hash = linkTokenHash(token);
  const memberId = await liveResetMemberId(db, hash, now);
  if (memberId === undefined) throw new BadRequestError(RESET_REFUSED);
  return { hash, memberId };
}

/**
 * `POST /api/password-reset/confirm`: in one transaction the new password, every reset link of the
 * member spent, every session ended, everything minted before refused (valid-from) and the notice
 * written. Returns the member and a new session for this browser.
 */
export async function confirmPasswordReset(
  deps: AccountDeps,
  input: PasswordResetConfirmBody,
  address: string,
): Promise<{ member: MemberRow; session: string }> {
  const { knex, settings } = deps;
  const reset = await liveReset(knex, input.token, deps.now());
  const member = await memberById(knex, reset.memberId);
  if (!member || member.disabled_at !== null) throw new BadRequestError(RESET_REFUSED);
  const hash = await hashPassword(input.newPassword, { owner: address });
  const now = deps.now();
  await knex.transaction(async (trx) => {
    // Locked first, as a request locks it before adding a link: the same order, no deadlock.
    await lockMember(trx, member.id);
    if (!(await spendLink(trx, 'password_resets', reset.hash, now))) throw new BadRequestError(RESET_REFUSED);
    await spendAllLinks(trx, 'password_resets', member.id, now);
    // An e-mail change asked for before (perhaps by whoever knew the old password) lapses too.
    await spendAllLinks(trx, 'email_changes', member.id, now);
    await setPasswordHash(trx, member.id, hash);
    await endSessionsOf(trx, member.id);
    await bumpAccessValidFrom(trx, member.id, now);
    await passwordChangedNotice(trx, settings.site, member, now);
  });
  nudgeMail();
  const session = await createSession(knex, member.id, now, settings.sessionTtlHours * 3_600_000);
  return { member: (await memberById(knex, member.id)) ?? member, session };
}
