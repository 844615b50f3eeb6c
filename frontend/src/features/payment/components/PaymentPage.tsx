import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { OutageNotice } from '../../../components/OutageNotice';
import { ErrorMessage, Loading } from '../../../components/StatusMessage';
import { useResource } from '../../../hooks/useResource';
import { refreshSession } from '../../../hooks/useSession';
import { ownsVod, useAccess } from '../../access/useAccess';
import { signInHref } from '../../access/LockedNotice';
import { HttpError } from '../../api/fetchJson';
import { getVodOffer } from '../api/getVodOffer';
import { runPaymentChain } from '../chain';
import { formatPrice } from '../../../config/money';
import { reportFrameHeight } from '../frame';
import { PaymentForm } from './PaymentForm';
import { joinHeading, offerTerms, useMembershipOfferResource } from '../useMembershipOffer';

// After approval the visitor reads the success text, then lands on the welcome (or the bought VOD).
const WELCOME_DELAY_MS = 1500;
const framed = typeof window !== 'undefined' && window.self !== window.top;
// Until the VOD page opens: the session refresh already lists the VOD as owned, and "You already
// own this VOD" in that gap read like a second charge.
export const VOD_APPROVED_TEXT = 'Payment approved — opening your VOD…';

/** /ccbill?vod={path}: the signed-in member buys one VOD at its listed price. */
function VodPurchase({ folder, approved, onApproved }: { folder: string; approved: boolean; onApproved: () => void }) {
  const access = useAccess();
  const offer = useResource(`vod-offer:${folder}`, (signal) => getVodOffer(folder, signal));

  if (approved) {
    return (
      <section>
        <h1>Buy VOD{offer.status === 'success' ? `: ${offer.data.updatename}` : ''}</h1>
        <p className="status status-ok" role="status">
          {VOD_APPROVED_TEXT}
        </p>
      </section>
    );
  }

  if (access.status === 'visitor') {
    return (
      <section>
        <h1>Buy a VOD</h1>
        <p className="status">
          <Link to={signInHref('/ccbill', `?vod=${encodeURIComponent(folder)}`)}>Sign in</Link> to buy this VOD, or{' '}
          <Link to="/join">join</Link> first.
        </p>
      </section>
    );
  }
  if (access.status === 'unknown' && access.unreachable) return <OutageNotice />;
  if (access.status === 'unknown' || offer.status === 'loading') return <Loading />;
  if (offer.status === 'error') {
    if (offer.error instanceof HttpError && offer.error.status === 404) return <p className="status">This VOD is not available.</p>;
    return <ErrorMessage error={offer.error} onRetry={offer.retry} />;
  }
  const vod = offer.data;
  if (ownsVod(access, vod.path)) {
    return (
      <section>
        <h1>Buy VOD: {vod.updatename}</h1>
        <p className="status">
          You already own this VOD. <Link to={`/vod/${encodeURIComponent(vod.path)}`}>Open it to download</Link>.
        </p>
      </section>
    );
  }
  return (
    <section>
      <h1>
        Buy VOD: {vod.updatename} ({formatPrice(vod.price)})
      </h1>
      <p className="muted">A one-time charge, bought as {access.member.username}. All fields are required unless marked optional.</p>
      <PaymentForm
        runChain={runPaymentChain}
        onApproved={onApproved}
        vod={{ path: vod.path, price: vod.price }}
        approvedText={VOD_APPROVED_TEXT}
      />
    </section>
  );
}

export function PaymentPage() {
  const navigate = useNavigate();
  const [approved, setApproved] = useState(false);
  const vod = useSearchParams()[0].get('vod');
  const { offer, reload: reloadOffer } = useMembershipOfferResource();

  // Inside /join's frame: tell the page our height so the whole form and its outcome show.
  useEffect(() => (framed ? reportFrameHeight() : undefined), []);

  useEffect(() => {
    if (!approved) return undefined;
    // The approved call set the session and media cookies; the SPA learns of them from /api/me.
    const session = refreshSession();
    const timer = setTimeout(() => {
      void session.then(() => {
        const target = vod ? `/vod/${encodeURIComponent(vod)}` : '/welcome';
        if (!framed) navigate(target, vod ? { state: { bought: true } } : undefined);
        else window.top?.location.assign(target);
      });
    }, WELCOME_DELAY_MS);
    return () => clearTimeout(timer);
  }, [approved, navigate, vod]);

  if (vod) return <VodPurchase folder={vod} approved={approved} onApproved={() => setApproved(true)} />;
  return (
    <section>
      {/* In /join's frame the page around it already says the price: the heading is for screen readers. */}
      <h1 className={framed ? 'visually-hidden' : undefined}>{offer ? joinHeading(offer) : 'Join'}</h1>
      {/* The exact terms, next to the form, before the card is asked for (the card brands' rule for trials). */}
      {offer && !framed && (
        <p className="join-terms" data-testid="join-terms">
          {offerTerms(offer, offer.renews)}
        </p>
      )}
      <p className="muted">All fields are required unless marked optional.</p>
      <PaymentForm
        runChain={runPaymentChain}
        onApproved={() => setApproved(true)}
        amount={offer ? (offer.trial?.price ?? offer.price) : null}
        offerId={offer?.id}
        onOfferChanged={reloadOffer}
      />
    </section>
  );
}
