import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ErrorMessage, Loading } from '../../../components/StatusMessage';
import { useResource } from '../../../hooks/useResource';
import { useSession } from '../../../hooks/useSession';
import { HttpError } from '../../api/fetchJson';
import { getVodOffer } from '../api/getVodOffer';
import { runPaymentChain } from '../chain';
import { formatPrice } from '../formData';
import { PaymentForm } from './PaymentForm';

// After approval the visitor reads the success text, then lands on home.
const WELCOME_DELAY_MS = 3000;

/** /ccbill?vod={path}: the signed-in member buys one VOD at its listed price. */
function VodPurchase({ folder, onApproved }: { folder: string; onApproved: () => void }) {
  const session = useSession();
  const offer = useResource(`vod-offer:${folder}`, (signal) => getVodOffer(folder, signal));

  if (session.status === 'signedOut') {
    return (
      <section>
        <h1>Buy a VOD</h1>
        <p className="status">
          <Link to={`/login?next=${encodeURIComponent(`/ccbill?vod=${folder}`)}`}>Sign in</Link> to buy this VOD, or <Link to="/join">join</Link> first.
        </p>
      </section>
    );
  }
  if (session.status === 'unknown' || offer.status === 'loading') return <Loading />;
  if (offer.status === 'error') {
    if (offer.error instanceof HttpError && offer.error.status === 404) return <p className="status">This VOD is not available.</p>;
    return <ErrorMessage error={offer.error} />;
  }
  const vod = offer.data;
  return (
    <section>
      <h1>
        Buy VOD: {vod.updatename} ({formatPrice(vod.price)})
      </h1>
      <p className="muted">
        A one-time charge, bought as {session.member.username}. All fields are required unless marked optional.
      </p>
      <PaymentForm runChain={runPaymentChain} onApproved={onApproved} vod={{ path: vod.path, price: vod.price }} />
    </section>
  );
}

export function PaymentPage() {
  const navigate = useNavigate();
  const [approved, setApproved] = useState(false);
  const vod = useSearchParams()[0].get('vod');

  useEffect(() => {
    if (!approved) return undefined;
    const timer = setTimeout(() => {
      if (window.self === window.top) navigate('/');
      else window.top?.location.assign('/');
    }, WELCOME_DELAY_MS);
    return () => clearTimeout(timer);
  }, [approved, navigate]);

  if (vod) return <VodPurchase folder={vod} onApproved={() => setApproved(true)} />;
  return (
    <section>
      <h1>Join: $14.99 for 30 days</h1>
      <p className="muted">Membership renews every 30 days until you cancel. All fields are required unless marked optional.</p>
      <PaymentForm runChain={runPaymentChain} onApproved={() => setApproved(true)} />
    </section>
  );
}
