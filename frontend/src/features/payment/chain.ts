import { HttpError, postJson } from '../api/fetchJson';
import { pausedForMaintenance } from '../api/maintenance';
import { paymentConfig } from './config';
import { OFFER_CHANGED } from '@media-site/contracts/membership-offer';
import { cardDigits } from './validation';
import type { PaymentFormData } from './formData';
import { PROVIDER_ACCEPT } from '@media-site/contracts/provider';
import type { BackendHandle, FrontendToken, PaymentOutcome } from '@media-site/contracts/member-api';

export const PAYMENT_MESSAGES = {
  processing: 'Processing...',
  firstToken: 'Failed to obtain access token.',
  paymentToken: 'Failed to create payment token.',
  secondToken: 'Failed to obtain second access token.',
  failed: 'Transaction failed.',
  success: 'Transaction successful!',
  welcome: 'Approved, welcome to the home page...',
  // Not in the spec's catalogue: the charge may have gone through, so "failed" would invite paying twice.
  unknown:
    'Transaction status unknown: the card processor did not confirm in time. Do not pay again; if the charge went through, your access is activated within a few minutes.',
} as const;

// Under "Transaction failed." (spec text): what happened and what to do, in plain words.
export const DECLINED_DETAIL =
  'Your card was declined, and nothing was charged. Try another card, or check the card details with your bank.';
export const FAILED_DETAIL = 'Nothing was charged. Try again in a moment, or try another card.';

// The most text a decline reason may add to the page: the provider's words, not an essay.
const REASON_MAX = 200;

/** With the processor's own words: what it said, that nothing was charged, and what works whatever it meant. */
export const DECLINED_SAID_DETAIL = 'Nothing was charged. Try again in a moment, or try another card.';

/**
 * The plain-words lines under "Transaction failed.": declined, or not charged. With the processor's
 * reason they quote it and advise what fits any reason: its words may say the card was refused
 * ("Insufficient funds") or that the processor failed ("System Error, Please Try Again"), and
 * "your card was declined" beside the second would contradict it.
 */
export function failureDetail(answer: PaymentOutcome | null): string[] {
  if (answer?.status !== 'declined') return answer?.status === 'failed' ? [FAILED_DETAIL] : [];
  const reason = answer.declineText?.trim().slice(0, REASON_MAX);
  return reason ? [`The card processor did not approve the charge. It said: “${reason}”`, DECLINED_SAID_DETAIL] : [DECLINED_DETAIL];
}

/** /ccbill?vod={path}: a signed-in member buying one VOD instead of a membership. */
function vodFromLocation(): string | undefined {
  return new URLSearchParams(window.location.search).get('vod') || undefined;
}

export interface ChainOptions {
  /** `detail`: plain-words lines shown under the message (what happened, what to try). */
  onStatus: (message: string, detail?: string[]) => void;
  /** A refusal that belongs to one field (a taken username), shown there instead of a step message. */
  onFieldError?: (field: 'username', message: string) => void;
  /** A membership: the terms the page showed (GET /api/payment-config's offer.id), sent with step 4. */
  offerId?: number | undefined;
  /** Step 4 refused because the terms changed after the page showed them: nothing was charged. */
  onOfferChanged?: () => void;
}

/** What the member reads when the terms changed under them (the page shows the new ones at once). */
export const OFFER_CHANGED_MESSAGE =
  'The membership terms changed while you were paying. Nothing was charged: read the new terms above and pay again.';

export const TAKEN_MESSAGE = 'This username is taken. Choose another.';
export const OWNED_MESSAGE = 'You already own this VOD.';

export type RunPaymentChain = (formData: PaymentFormData, options: ChainOptions) => Promise<boolean>;

// One step of spec §4's chain: its value, or null (the caller reports the step's own message).
async function step<T>(run: () => Promise<T | undefined>): Promise<T | null> {
  try {
    return (await run()) ?? null;
  } catch (error) {
    if (error instanceof HttpError) console.warn('Network response was not ok.', error.status);
    else console.warn('payment step failed', error);
    return null;
  }
}

function paymentTokenBody(form: PaymentFormData, account: { clientAccnum: number; clientSubacc: number }) {
  return {
    clientAccnum: account.clientAccnum,
    clientSubacc: account.clientSubacc,
    subscriptionId: 0,
    customerInfo: {
      customerFname: form.firstName.trim(),
      customerLname: form.lastName.trim(),
      address1: form.address1.trim(),
      address2: form.address2.trim(),
      city: form.city.trim(),
      state: form.state.trim(),
      zipcode: form.postalCode.trim(),
      country: form.country.trim().toUpperCase(),
      phoneNumber: form.phoneNumber.trim(),
      email: form.email.trim(),
      browserHttpUserAgent: navigator.userAgent,
      browserHttpAccept: 'text/html,application/json',
      browserHttpAcceptLanguage: navigator.language,
      browserHttpAcceptEncoding: 'gzip, deflate, br',
    },
    paymentInfo: {
      creditCardPaymentInfo: {
        cardNum: cardDigits(form.cardNumber),
        nameOnCard: form.nameOnCard.trim(),
        expMonth: form.expMonth,
        expYear: form.expYear,
        cvv2: form.cvv2,
      },
    },
    timeToLive: paymentConfig.timeToLive,
    validNumberOfUse: paymentConfig.validNumberOfUse,
  };
}

// A VOD is bought by the signed-in member: no new username or password travels.
const credentialsOf = (form: PaymentFormData, vod: string | undefined) => (vod ? {} : { username: form.username, password: form.password });

function processBody(form: PaymentFormData, vod: string | undefined) {
  return {
    initialPrice: form.price,
    initialPeriod: form.period,
    recurringPrice: form.price,
    recurringPeriod: form.period,
    rebills: form.rebills,
    currencyCode: form.currency,
    passThroughInfo: vod ? [] : [{ name: 'username', value: form.username }],
    ...credentialsOf(form, vod),
    email: form.email.trim(),
    expiration: '12/31/2099',
  };
}

// Spec §4: four calls in order, stopping at the first failure with that step's message.
export const runPaymentChain: RunPaymentChain = async (form, { onStatus, onFieldError, offerId, onOfferChanged }) => {
  onStatus(PAYMENT_MESSAGES.processing);

  const vod = vodFromLocation();
  let refused: number | undefined;
  let paused: string | undefined;
  const first = await step(async () => {
    try {
      // Step 1's answer also says where the provider is (server configuration, not a build-time host).
      const answer = await postJson<FrontendToken>('/api/get_ccbill_token', { ...credentialsOf(form, vod), vod });
      return answer.access_token ? answer : undefined;
    } catch (error) {
      if (error instanceof HttpError) refused = error.status;
      paused = pausedForMaintenance(error);
      throw error;
    }
  });
  // The site is in maintenance (joining and buying paused): its own words, not a step's failure.
  if (paused) {
    onStatus(paused);
    return false;
  }
  // 409: the username is taken, or the VOD is already this member's. Not a step failure: say so.
  if (refused === 409) {
    if (vod) onStatus(OWNED_MESSAGE);
    else {
      onStatus('');
      onFieldError?.('username', TAKEN_MESSAGE);
    }
    return false;
  }
  if (!first?.access_token) {
    onStatus(PAYMENT_MESSAGES.firstToken);
    return false;
  }

  const paymentToken = await step(
    async () =>
      (
        await postJson<{ paymentTokenId?: string }>(
          `${first.providerBase ?? paymentConfig.providerBase}/payment-tokens/merchant-only-verify`,
          paymentTokenBody(form, {
            clientAccnum: first.clientAccnum ?? paymentConfig.clientAccnum,
            clientSubacc: first.clientSubacc ?? paymentConfig.clientSubacc,
          }),
          { headers: { Authorization: `Bearer ${first.access_token}`, Accept: PROVIDER_ACCEPT } },
        )
      ).paymentTokenId,
  );
  if (!paymentToken) {
    onStatus(PAYMENT_MESSAGES.paymentToken);
    return false;
  }

  // The handle is bound to this payment token and to step 1's cookie (sent automatically: same origin).
  const second = await step(async () => (await postJson<BackendHandle>('/api/get_ccbill_back_token', { paymentToken })).access_token);
  if (!second) {
    onStatus(PAYMENT_MESSAGES.secondToken);
    return false;
  }

  let conflict = false;
  let offerChanged = false;
  const answer = await step(async () => {
    try {
      return await postJson<PaymentOutcome>('/api/process_payment', {
        accessToken: second,
        paymentToken,
        vod,
        ...(vod === undefined && offerId !== undefined ? { offerId } : {}),
        formData: processBody(form, vod),
      });
    } catch (error) {
      conflict = error instanceof HttpError && error.status === 409;
      offerChanged = conflict && error instanceof HttpError && error.serverMessage === OFFER_CHANGED;
      throw error;
    }
  });
  if (offerChanged) {
    onStatus(OFFER_CHANGED_MESSAGE);
    onOfferChanged?.();
    return false;
  }
  // Taken (or bought) between step 1 and now: nothing was charged.
  if (conflict) {
    if (vod) onStatus(OWNED_MESSAGE);
    else {
      onStatus('');
      onFieldError?.('username', TAKEN_MESSAGE);
    }
    return false;
  }
  if (answer?.status === 'unknown') {
    onStatus(PAYMENT_MESSAGES.unknown);
    return false;
  }
  if (answer?.approved !== true) {
    onStatus(PAYMENT_MESSAGES.failed, failureDetail(answer));
    return false;
  }
  onStatus(PAYMENT_MESSAGES.success);
  return true;
};
