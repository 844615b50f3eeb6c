import { joinHeading, offerTerms, type MembershipOffer } from '@media-site/contracts/membership-offer';
import type { PaymentConfig } from '@media-site/contracts/member-api';
import { useResource } from '../../hooks/useResource';
import { fetchJson } from '../api/fetchJson';

export type SiteOffer = MembershipOffer & { id: number; renews: boolean };

const load = (signal: AbortSignal) => fetchJson<PaymentConfig>('/api/payment-config', { signal }).then((config) => config.offer);

/**
 * What a new member is charged (the console's Prices): the server's, never a price built into the
 * SPA, so a trial or a new price shows everywhere at once. Undefined while loading or unreachable:
 * pages then leave the price out rather than show one that may be wrong.
 */
export function useMembershipOffer(): SiteOffer | undefined {
  return useMembershipOfferResource().offer;
}

/** The offer and a way to ask again (the join form, when the terms changed while paying). */
export function useMembershipOfferResource(): { offer: SiteOffer | undefined; reload: () => void } {
  const resource = useResource('membership-offer', load);
  return { offer: resource.status === 'success' ? resource.data : undefined, reload: resource.retry };
}

/** "$14.99 for 30 days" / "$1.95 for a 2-day trial": what joining costs today, for short mentions. */
export function joinPrice(offer: SiteOffer): string {
  const heading = joinHeading(offer).replace(/^Join: /, '');
  return offer.trial ? `${heading} trial` : heading;
}

export { joinHeading, offerTerms };
