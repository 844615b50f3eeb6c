// Payment settlement: the attempts recorded before each charge, and settling them (the member, the
// subscription and the receipt in one transaction) whichever way the outcome arrives: the charge's
// own answer and the provider's webhooks in the bff, an operator's reconcile from the console or
// the operator CLI. And the subscriptions a settled charge starts, which the webhooks renew, cancel,
// expire or revoke.
export {
  attemptById,
  attemptBySubscriptionId,
  attemptByToken,
  closeAttempt,
  insertAttempt,
  openAttempts,
  reservationTaken,
  type AttemptRow,
  type AttemptStatus,
  type NewAttempt,
} from './attempts';
export { markUnknown, settleApproved, settleDeclined, settleFailed, type OnSettled, type SettledFacts, type SettleOptions } from './settle';
export {
  approve,
  decline,
  expireOpen,
  listOpen,
  reconcileAttempt,
  ReconcileError,
  resendReceipt,
  settleOptionsFromEnv,
  type ReconcileAction,
} from './reconcile';
export {
  cancelRebilling,
  insertSubscription,
  subscriptionsByProviderId,
  updateSubscription,
  type SubscriptionRow,
  type SubscriptionStatus,
} from './subscriptions';
export { membershipTermsShape } from './terms';
export { chargeTerms, checkOffer, currentOffer, setOffer, type OfferInForce } from './offers';
export { currentVodPrice, setVodPrice, type VodPriceInForce } from './vod-price';
