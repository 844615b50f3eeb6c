import { setReleaseMail } from '@media-site/db/mail';
import type { ReleaseMailState } from '@media-site/contracts/member-api';
import type { AccountDeps } from '../../../account/deps';
import type { MemberRow } from '../../../account/repository';
import { enforceRateLimit } from '../../../security/rate-limit';

/** Switches a member's release mails per minute: more is a script, not a person. */
export const RELEASE_MAIL_SWITCHES_PER_MINUTE = 20;

/**
 * PUT (on) and DELETE (off) /api/account/release-mail: "e-mail me when models in my list release
 * something". On counts from now: nothing released before is mailed.
 */
export async function switchReleaseMail(deps: AccountDeps, member: MemberRow, on: boolean): Promise<ReleaseMailState> {
  await enforceRateLimit(
    deps.limiter,
    `releasemail:member:${member.id}`,
    RELEASE_MAIL_SWITCHES_PER_MINUTE,
    60,
    'too many changes of this setting, wait a minute and try again',
  );
  await setReleaseMail(deps.knex, member.id, on, deps.now());
  return { releaseMail: on };
}
