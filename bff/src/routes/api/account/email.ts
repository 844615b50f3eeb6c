import type { Knex } from 'knex';
import { z } from 'zod';
import { EMAIL, PASSWORD_MAX } from '@media-site/contracts/member-rules';
import { enqueueMail } from '@media-site/db/mail';
import { emailChangedMail, emailChangeRequestedMail, emailConfirmMail } from '@media-site/db/mail/templates';
import { verifyPassword } from '@media-site/db/members';
import { BadRequestError, ForbiddenError } from '../../../errors';
import { nudgeMail } from '../../../mail/worker';
import { enforceRateLimit } from '../../../security/rate-limit';
import type { AccountDeps } from '../../../account/deps';
import { memberById, setEmail, type MemberRow } from '../../../account/repository';
import { emailSized, linkToken } from '../password-reset/schema';
import { insertEmailChange, liveEmailChange, spendAllLinks, spendLink } from '../password-reset/repository';
import { LINK_TOKEN, linkTokenHash, newLinkToken } from '../password-reset/tokens';
import { stop } from '../shared/params';

// A member's e-mail address changes only when a link sent to the new address is opened; the old
// address hears of the request and of the change.

export const EMAIL_CHANGE_TTL_MS = 24 * 3_600_000;
/** Change requests per member per hour (each costs a password check and two mails). */
export const EMAIL_CHANGES_PER_HOUR = 3;
export const EMAIL_CHANGE_REFUSED = 'This confirmation link has expired or was already used. Ask for a new one from your account page.';

export const emailChangeBody = z.object({
  email: emailSized('required').regex(EMAIL, 'not an e-mail address'),
  currentPassword: z.string().min(1, stop('required')).max(PASSWORD_MAX, stop()),
});
export type EmailChangeBody = z.infer<typeof emailChangeBody>;

export const emailConfirmBody = z.object({ token: linkToken });
export type EmailConfirmBody = z.infer<typeof emailConfirmBody>;

/**
 * `POST /api/account/email`: the current password, then a link (24 hours) to the new address and a
 * notice to the old one, in one transaction. A newer request makes older links unusable.
 */
export async function requestEmailChange(deps: AccountDeps, member: MemberRow, input: EmailChangeBody, address: string): Promise<void> {
  const { limiter, settings } = deps;
  await enforceRateLimit(
    limiter,
    `emailchange:member:${member.id}`,
    EMAIL_CHANGES_PER_HOUR,
    3600,
    'too many e-mail changes, try again in an hour',
  );
  if (!(await verifyPassword(input.currentPassword, member.password_hash, { owner: address })))
    throw new ForbiddenError('the current password is wrong');
  if (input.email.toLowerCase() === member.email.toLowerCase()) throw new BadRequestError('email: this is already your address');
  const { token, hash } = newLinkToken();
  const now = deps.now();
  await deps.knex.transaction(async (trx) => {
    await spendAllLinks(trx, 'email_changes', member.id, now);
    await insertEmailChange(trx, { hash, memberId: member.id, newEmail: input.email, now, ttlMs: EMAIL_CHANGE_TTL_MS });
    const key = hash.slice(0, 32);
    const facts = { username: member.username, newEmail: input.email };
    await enqueueMail(
      trx,
      { key: `email-confirm:${key}`, to: input.email, template: 'email-confirm', ...emailConfirmMail(settings.site, { ...facts, token }) },
      now,
    );
    if (member.email !== '')
      await enqueueMail(
        trx,
        {
          key: `email-requested:${key}`,
          to: member.email,
          template: 'email-change-requested',
          ...emailChangeRequestedMail(settings.site, facts),
        },
        now,
      );
  });
  nudgeMail();
}

async function liveChange(db: Knex, token: string, now: number): Promise<{ hash: string; memberId: number; newEmail: string }> {
  if (!LINK_TOKEN.test(token)) throw new BadRequestError(EMAIL_CHANGE_REFUSED);
  const hash = linkTokenHash(token);
  const change = await liveEmailChange(db, hash, now);
  if (!change) throw new BadRequestError(EMAIL_CHANGE_REFUSED);
  return { hash, ...change };
}

/** `POST /api/account/email/confirm` (signed in or not: the link is the proof): the new address, and a notice to the old one. */
export async function confirmEmailChange(deps: AccountDeps, input: EmailConfirmBody): Promise<string> {
  const now = deps.now();
  const change = await liveChange(deps.knex, input.token, now);
  const member = await memberById(deps.knex, change.memberId);
  if (!member || member.disabled_at !== null) throw new BadRequestError(EMAIL_CHANGE_REFUSED);
  await deps.knex.transaction(async (trx) => {
    if (!(await spendLink(trx, 'email_changes', change.hash, now))) throw new BadRequestError(EMAIL_CHANGE_REFUSED);
    await setEmail(trx, member.id, change.newEmail);
    // Reset links mailed to the old address stop working with it.
    await spendAllLinks(trx, 'password_resets', member.id, now);
    const mail = emailChangedMail(deps.settings.site, { username: member.username, newEmail: change.newEmail });
    if (member.email !== '')
      await enqueueMail(
        trx,
        { key: `email-changed:${change.hash.slice(0, 32)}`, to: member.email, template: 'email-changed', ...mail },
        now,
      );
  });
  nudgeMail();
  return change.newEmail;
}
