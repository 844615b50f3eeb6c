import { composeMail, siteLink, type MailBlock, type MailSite, type RenderedMail } from '../compose';

// Receipts and membership notices, from what the bff stores: the payment attempt, the
// subscription and the provider's webhook events. The card provider's statement descriptor is not
// known here, so a receipt says only that the charge comes from the card billing provider.

const USD = 840;

const greeting = (username: string) => `Hello ${username},`;

/** "$14.99" for US dollars (ISO 4217 840), else "14.99 978": the amount as stored, never rounded. */
export function formatAmount(amount: string, currencyCode: number): string {
  return currencyCode === USD ? `$${amount}` : `${amount} ${currencyCode}`;
}

/** A date as a receipt states it: YYYY-MM-DD in UTC. */
export const mailDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const STATEMENT = 'The charge appears on your card statement from our card billing provider, not under our name.';

/** How to stop renewals: the spec's two ways (the site's e-mail, the provider's consumer support). */
const cancelling = (site: MailSite): MailBlock[] => [
  "To stop the renewals, e-mail us (the address is on your account page) or contact the card billing provider's consumer support.",
  { link: siteLink(site, '/account'), label: 'Your account' },
];

/** The /contact page has the site's e-mail for everyone (the account page shows it only to an active member). */
const contactUs = (site: MailSite): MailBlock => ({ link: siteLink(site, '/contact'), label: 'Contact us' });

const reference = (attemptId: number, subscriptionId: string | null) =>
  subscriptionId ? `payment ${attemptId}, subscription ${subscriptionId}` : `payment ${attemptId}`;

export interface MembershipReceipt {
  username: string;
  amount: string;
  currencyCode: number;
  /** The first period (a trial's, when there is one). */
  periodDays: number;
  /** A trial: what the membership costs after it, and every how many days. */
  trial?: { recurringPrice: string; recurringPeriodDays: number } | null | undefined;
  /** False when the membership was sold with no rebills. */
  renews: boolean;
  /** When the charge was approved (Unix ms). */
  paidAt: number;
  /** Access lasts until (Unix ms). */
  paidUntil: number;
  attemptId: number;
  subscriptionId: string | null;
}

/** After joining: the welcome and the first receipt in one mail. */
export function welcomeReceiptMail(site: MailSite, m: MembershipReceipt): RenderedMail {
  return composeMail(site, 'Welcome — your receipt', greeting(m.username), [
    `Thank you for joining ${site.name}. Your membership is active: sign in with the username "${m.username}" and the password you chose.`,
    { link: siteLink(site, '/login'), label: 'Sign in' },
    {
      rows: [
        [
          'Product',
          m.trial
            ? `Membership, ${m.periodDays}-day trial, then ${formatAmount(m.trial.recurringPrice, m.currencyCode)} every ${m.trial.recurringPeriodDays} days${m.renews ? ' until you cancel' : ''}`
            : `Membership, ${m.periodDays} days${m.renews ? ', renews automatically' : ', does not renew'}`,
        ],
        ['Amount', formatAmount(m.amount, m.currencyCode)],
        ['Date', mailDate(m.paidAt)],
        ['Access until', mailDate(m.paidUntil)],
        ['Reference', reference(m.attemptId, m.subscriptionId)],
      ],
    },
    STATEMENT,
    ...(m.renews ? cancelling(site) : []),
  ]);
}

export interface VodReceipt {
  username: string;
  /** The VOD's title (vods.updatename). */
  title: string;
  amount: string;
  currencyCode: number;
  paidAt: number;
  attemptId: number;
  subscriptionId: string | null;
}

/** A VOD bought: a one-off charge, no renewal. */
export function vodReceiptMail(site: MailSite, m: VodReceipt): RenderedMail {
  return composeMail(site, `Receipt for ${m.title}`, greeting(m.username), [
    `Thank you for buying "${m.title}". It is in your account, ready to watch and download.`,
    { link: siteLink(site, '/account'), label: 'Your account' },
    {
      rows: [
        ['Product', `VOD: ${m.title}`],
        ['Amount', formatAmount(m.amount, m.currencyCode)],
        ['Date', mailDate(m.paidAt)],
        ['Reference', reference(m.attemptId, m.subscriptionId)],
      ],
    },
    `${STATEMENT} This was a single charge: it does not renew.`,
  ]);
}

export interface RenewalReceipt {
  username: string;
  /** billedAmount from the provider's event; null when the event did not say. */
  amount: string | null;
  currencyCode: number;
  renewedAt: number;
  /** Access lasts until (Unix ms). */
  paidUntil: number | null;
  /** The provider's nextRenewalDate (Unix ms), when the event had one. */
  nextRenewal: number | null;
  subscriptionId: string;
}

export function renewalReceiptMail(site: MailSite, m: RenewalReceipt): RenderedMail {
  const rows: Array<readonly [string, string]> = [['Product', 'Membership renewal']];
  if (m.amount !== null) rows.push(['Amount', formatAmount(m.amount, m.currencyCode)]);
  rows.push(['Date', mailDate(m.renewedAt)]);
  if (m.paidUntil !== null) rows.push(['Access until', mailDate(m.paidUntil)]);
  if (m.nextRenewal !== null) rows.push(['Next renewal', mailDate(m.nextRenewal)]);
  rows.push(['Reference', `subscription ${m.subscriptionId}`]);
  return composeMail(site, 'Your membership renewed', greeting(m.username), [
    `Your ${site.name} membership was renewed. Thank you for staying with us.`,
    { rows },
    STATEMENT,
    ...cancelling(site),
  ]);
}

/** The provider could not charge the renewal; nothing changes on our side until it does or the period ends. */
export function renewalFailedMail(site: MailSite, m: { username: string; paidUntil: number | null }): RenderedMail {
  return composeMail(site, 'We could not renew your membership', greeting(m.username), [
    m.paidUntil === null
      ? 'The card billing provider could not charge your card for the renewal of your membership.'
      : `The card billing provider could not charge your card for the renewal of your membership. Your access lasts until ${mailDate(m.paidUntil)}.`,
    "To update your card, contact the card billing provider's consumer support; they hold the card details, we never see them. If you have a question, write to us.",
    contactUs(site),
  ]);
}

export function cancellationMail(site: MailSite, m: { username: string; paidUntil: number | null }): RenderedMail {
  return composeMail(site, 'Your membership was cancelled', greeting(m.username), [
    m.paidUntil === null
      ? 'Your membership was cancelled: it will not renew and your card will not be charged again.'
      : `Your membership was cancelled: it will not renew and your card will not be charged again. You keep access until ${mailDate(m.paidUntil)}.`,
    'If you did not ask for this, write to us.',
    contactUs(site),
  ]);
}

const WITHDRAWN_BECAUSE: Record<string, string> = {
  Chargeback: 'the card billing provider told us of a chargeback on a payment of this account',
  Refund: 'a payment of this account was refunded',
  Return: 'a payment of this account was returned',
  Void: 'a payment of this account was voided',
};

/** Money went back to the card: media access is withdrawn until an operator restores it. */
export function accessWithdrawnMail(site: MailSite, m: { username: string; eventType: string }): RenderedMail {
  const because = WITHDRAWN_BECAUSE[m.eventType] ?? 'a payment of this account was reversed';
  return composeMail(site, 'Your access was withdrawn', greeting(m.username), [
    `Access to the members' area and your purchases was withdrawn because ${because}.`,
    'If you think this is a mistake, write to us and we will look into it.',
    contactUs(site),
  ]);
}
