import type { Knex } from 'knex';
import { parseManifest } from '@media-site/db/encode';
import { createSession, endSessionsOf, hashPassword, verifyPassword } from '@media-site/db/members';
import { BadRequestError, ForbiddenError } from '../../../errors';
import { enforceRateLimit } from '../../../security/rate-limit';
import { ACCOUNT_WINDOW_SECONDS } from '../auth/limits';
import { memberView } from '../auth/service';
import type { AccountDeps } from '../../../account/deps';
import { accessWithdrawn } from '../../../account/entitlements';
import { boughtVodRows, bumpAccessValidFrom, membershipRenews, setPasswordHash, type MemberRow } from '../../../account/repository';
import { passwordChangedNotice } from '../password-reset/service';
import { spendAllLinks } from '../password-reset/repository';
import { downloadChoices } from '../playback/downloads';
import type { ChangePasswordBody } from './schema';
import type { AccountView, BoughtVod } from '@media-site/contracts/member-api';
import { releaseMailOn } from '@media-site/db/mail';

/**
 * The member's VODs by title, with the file to ask a download link for and every size to download
 * (the original, then the renditions its encode made, largest first). A taken-down one stays
 * listed (it was bought) but as removed: no title and no folder (the folder is the title; the
 * catalog shows neither) and no download (the bff signs no link to it, the media service answers
 * 410). One an operator scheduled again for later is left out until its release, as everywhere.
 */
async function boughtVods(db: Knex, memberId: number): Promise<BoughtVod[]> {
  return (await boughtVodRows(db, memberId, Date.now())).map((r): BoughtVod => {
    if (r.takenDown) return { removed: true };
    const naming = { path: r.path, prename: r.prename, format: r.format, datetoupload: r.datetoupload };
    const downloads = downloadChoices('vod', naming, parseManifest(r.manifest));
    return { path: naming.path, updatename: r.updatename, download: downloads[0]!.path, downloads };
  });
}

/** GET /api/account: what /api/me says, plus whether the membership rebills and the bought VODs by title. */
export async function accountView(deps: AccountDeps, member: MemberRow): Promise<AccountView> {
  const view = await memberView(deps, member);
  const withdrawn = accessWithdrawn(member);
  const renews = !withdrawn && view.membership.active && (await membershipRenews(deps.knex, member.id));
  return {
    ...view,
    email: member.email,
    membership: { ...view.membership, renews, cancellable: renews && deps.settings.datalink !== null },
    vodItems: withdrawn ? [] : await boughtVods(deps.knex, member.id),
    releaseMail: await releaseMailOn(deps.knex, member.id),
  };
}

/**
 * Current password required. Limits as for sign-in guesses: per address a minute (routes.ts, before
 * the body is read), per member per 15 minutes. Every other session of the member ends; this
 * browser gets a fresh session.
 */
export async function changePassword(deps: AccountDeps, member: MemberRow, input: ChangePasswordBody, address: string): Promise<string> {
  const { limiter, settings } = deps;
  await enforceRateLimit(
    limiter,
    `pwchange:member:${member.id}`,
    settings.loginPerAccount,
    ACCOUNT_WINDOW_SECONDS,
    'too many password changes, try again in 15 minutes',
  );
  if (!(await verifyPassword(input.currentPassword, member.password_hash, { owner: address })))
    throw new ForbiddenError('the current password is wrong');
  if (input.newPassword === input.currentPassword) throw new BadRequestError('newPassword: must differ from the current password');
  const hash = await hashPassword(input.newPassword, { owner: address });
  const now = deps.now();
  await deps.knex.transaction(async (trx) => {
    await setPasswordHash(trx, member.id, hash);
    // Reset links mailed before would set the password again: none outlives the change.
    await spendAllLinks(trx, 'password_resets', member.id, now);
    await endSessionsOf(trx, member.id);
    // What the ended sessions minted (links, edge URLs, media cookies) ends at the media service's next poll.
    await bumpAccessValidFrom(trx, member.id, now);
    await passwordChangedNotice(trx, deps.settings.site, member, now);
  });
  return createSession(deps.knex, member.id, now, settings.sessionTtlHours * 3_600_000);
}

/**
 * Ends every session of the member, on every browser, and everything those sessions minted: the
 * media service refuses older download links, edge URLs and media cookies after its next poll.
 */
export async function signOutEverywhere(deps: AccountDeps, member: MemberRow): Promise<number> {
  let ended = 0;
  await deps.knex.transaction(async (trx) => {
    await bumpAccessValidFrom(trx, member.id, deps.now());
    ended = await endSessionsOf(trx, member.id);
  });
  return ended;
}
