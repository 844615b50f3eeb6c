import type { OnSettled, SettleOptions } from '@media-site/db/payments';
import { nudgeMail } from '../../../mail/worker';
import { countSettled } from '../../../payment-metrics';

/**
 * The bff's side of a settlement (db's payments module settles): each outcome counted once, and an
 * approval's receipt mailed now rather than at the mail worker's next poll.
 */
export const countSettlement: OnSettled = (status, facts) => {
  countSettled(status, facts);
  if (status === 'approved') nudgeMail();
};

/** How the bff settles an approval: the membership's terms and the site from its configuration. */
export const settleOptionsOf = (settings: Pick<SettleOptions, 'membership' | 'site'>): SettleOptions => ({
  membership: settings.membership,
  site: settings.site,
  onSettled: countSettlement,
});
