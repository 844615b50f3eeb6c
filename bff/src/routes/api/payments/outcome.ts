import type { PaymentOutcome as PaymentAnswer } from '@media-site/contracts/member-api';
import type { AttemptRow } from '@media-site/db/payments';

export const UNKNOWN_MESSAGE =
  'We could not confirm the payment with the card processor. Do not pay again: if the charge went through, your access is activated automatically within a few minutes.';

/** The most of the processor's decline text an answer carries (the column's width; SQLite does not enforce it). */
export const DECLINE_TEXT_MAX = 200;

export interface PaymentOutcome {
  httpStatus: 200 | 202;
  /** A decline's `declineText` is the card processor's own words, which /ccbill shows under "Transaction failed.". */
  body: PaymentAnswer;
}

/** The same answer for the first call and every repeat of it. */
export function outcomeOf(attempt: AttemptRow): PaymentOutcome {
  switch (attempt.status) {
    case 'approved':
      return { httpStatus: 200, body: { approved: true, status: 'approved' } };
    case 'declined':
      return {
        httpStatus: 200,
        body: {
          approved: false,
          status: 'declined',
          message: 'The card was declined.',
          declineText: attempt.decline_text?.slice(0, DECLINE_TEXT_MAX) || undefined,
        },
      };
    case 'failed':
      return {
        httpStatus: 200,
        body: { approved: false, status: 'failed', message: 'The payment could not be processed; nothing was charged.' },
      };
    default:
      return { httpStatus: 202, body: { approved: false, status: 'unknown', message: UNKNOWN_MESSAGE } };
  }
}
