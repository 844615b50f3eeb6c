import { appendAudit } from '@media-site/db/admin';
import { enqueueMail } from '@media-site/db/mail';
import { cancelRebilling } from '@media-site/db/payments';
import { cancellationMail } from '@media-site/db/mail/templates';
import type { RenewalCancelled } from '@media-site/contracts/member-api';
import { ConflictError, PaymentRefusedError, UnavailableError } from '../../../errors';
import { enforceRateLimit } from '../../../security/rate-limit';
import { ACCOUNT_WINDOW_SECONDS } from '../auth/limits';
import type { AccountDeps } from '../../../account/deps';
import { accessWithdrawn } from '../../../account/entitlements';
import { rebillingMemberships, type MemberRow } from '../../../account/repository';
import { cancelSubscription } from '../../../provider/datalink';
import { memberView } from '../auth/service';

/** Cancel renewal tries per member per 15 minutes: one click normally, a few retries after an outage. */
export const CANCEL_TRIES = 5;

/** How a refusal reads: to the member on /account, or to support in the console. */
export interface CancelWording {
  nothing: string;
  offline: string;
  unknown: (reason: string) => string;
  refused: (meaning: string, code: number) => string;
}

const TO_MEMBER: CancelWording = {
  nothing: 'Your membership does not renew: there is nothing to cancel.',
  offline: 'Renewal cannot be cancelled online on this site: e-mail support and we will cancel it.',
  unknown: (reason) =>
    `Your renewal is not cancelled yet: ${reason}. Try again in a few minutes (if it did go through, this page will say so shortly).`,
  refused: (meaning, code) =>
    `The card processor did not cancel the renewal (${meaning}, code ${code}). E-mail support and we will cancel it.`,
};

/**
 * Stops the member's rebilling: the provider's subscription management API first; only then is each
 * subscription marked `cancelled` here, with the confirmation mail queued in the same transaction
 * (keyed per subscription, and only when this call moved it: the provider's Cancellation webhook
 * that follows changes nothing more and sends nothing), and, for support's button, the audit row.
 * Access runs to the paid-through day.
 */
export async function stopRebilling(
  deps: AccountDeps,
  member: MemberRow,
  wording: CancelWording,
  audit?: { actor: string; address: string },
): Promise<void> {
  const subscriptions = accessWithdrawn(member) ? [] : await rebillingMemberships(deps.knex, member.id);
  if (subscriptions.length === 0) throw new ConflictError(wording.nothing);
  const datalink = deps.settings.datalink;
  if (!datalink) throw new ConflictError(wording.offline);
  for (const s of subscriptions) {
    // A membership granted by an operator has no subscription at the provider: nothing to stop there.
    if (s.providerSubscriptionId !== null) {
      const result = await cancelSubscription(datalink, s.providerSubscriptionId);
      if (result.kind === 'unknown') throw new UnavailableError(wording.unknown(result.reason));
      if (result.kind === 'refused') {
        deps.logger.warn({ subscriptionId: s.providerSubscriptionId, code: result.code }, `renewal cancel refused: ${result.meaning}`);
        throw new PaymentRefusedError(wording.refused(result.meaning, result.code));
      }
    }
    const now = deps.now();
    await deps.knex.transaction(async (trx) => {
      if (!(await cancelRebilling(trx, s.id, now))) return;
      if (audit)
        await appendAudit(trx, {
          ...audit,
          action: 'member.cancel-renewal',
          target: member.username,
          before: { subscription: s.id, status: 'active' },
          after: { subscription: s.id, status: 'cancelled', providerSubscriptionId: s.providerSubscriptionId },
          at: now,
        });
      const to = member.email?.trim();
      if (to)
        await enqueueMail(
          trx,
          {
            key: `cancel-renewal:${s.id}`,
            to,
            template: 'cancellation',
            ...cancellationMail(deps.settings.site, { username: member.username, paidUntil: s.paidUntil }),
          },
          now,
        );
    });
  }
}

/**
 * Cancel renewal, online (laws on automatic renewal expect it; a member who finds no way calls the
 * bank): stopRebilling, at most CANCEL_TRIES times per 15 minutes. No password asked: cancelling
 * takes nothing away and can be undone by joining again; the session and the site's own origin are
 * required (routes.ts).
 */
export async function cancelRenewal(deps: AccountDeps, member: MemberRow): Promise<RenewalCancelled> {
  await enforceRateLimit(
    deps.limiter,
    `cancel-renewal:${member.id}`,
    CANCEL_TRIES,
    ACCOUNT_WINDOW_SECONDS,
    'too many tries: wait 15 minutes',
  );
  await stopRebilling(deps, member, TO_MEMBER);
  const paidUntil = (await memberView(deps, member)).membership.paidUntil;
  return {
    paidUntil,
    message: paidUntil
      ? `Your membership ends on ${paidUntil}. It will not be charged again; we sent a confirmation by e-mail.`
      : 'Your membership will not be charged again; we sent a confirmation by e-mail.',
  };
}
