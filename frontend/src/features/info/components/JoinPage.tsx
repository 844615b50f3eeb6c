import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { SITE_EMAIL } from '../../../config/site';
import { joinHeading, useMembershipOffer } from '../../payment/useMembershipOffer';
import { isFrameHeightMessage } from '../../payment/frame';
import { useAccess } from '../../access/useAccess';
import { MEMBER_GETS } from '../membership';

// Until the framed form reports its height (and if it never does): the spec's 600 px.
const DEFAULT_FRAME_HEIGHT = 600;

/** The card form's frame, as tall as its content: the framed /ccbill posts its height (same origin only). */
function PaymentFrame() {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(DEFAULT_FRAME_HEIGHT);
  useEffect(() => {
    function onMessage(event: MessageEvent) {
      if (event.origin !== window.location.origin || event.source !== frame.current?.contentWindow || !isFrameHeightMessage(event.data))
        return;
      // The frame's own border (box-sizing: border-box) comes on top of its content's height.
      const border = frame.current ? frame.current.offsetHeight - frame.current.clientHeight : 0;
      setHeight(Math.min(Math.max(event.data.height + border, 200), 10_000));
    }
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);
  return <iframe ref={frame} className="join-frame" src="/ccbill" title="Membership payment form" height={height} style={{ height }} />;
}

export function JoinPage() {
  const access = useAccess();
  const offer = useMembershipOffer();
  const mail = <a href={`mailto:${SITE_EMAIL}?subject=Membership`}>{SITE_EMAIL}</a>;
  return (
    <article className="prose">
      <h1>Join</h1>
      {access.status === 'signedIn' && access.active && (
        <p className="status" role="note">
          You are signed in as {access.member.username} with an active membership. See <Link to="/account">your account</Link>.
        </p>
      )}
      {/* What a membership gives, read before the form: a payer first learns what members get, not a workaround. */}
      <p className="join-lead">
        {offer ? (
          <>
            <strong>{joinHeading(offer).replace(/^Join: /, '')}</strong>
            {offer.trial
              ? `, then $${offer.price} every ${offer.periodDays} days until you cancel`
              : offer.renews
                ? `, renewed every ${offer.periodDays} days until you cancel`
                : ''}
            .
          </>
        ) : null}{' '}
        Members get:
      </p>
      <ul className="join-benefits">
        {MEMBER_GETS.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {access.status !== 'signedIn' && (
        <p>
          Already a member? <Link to="/login">Sign in</Link>
        </p>
      )}
      <h2>Join by card</h2>
      <p className="muted">
        Your access starts as soon as the card is approved. The form below is also on <Link to="/ccbill">a page of its own</Link>.
      </p>
      <PaymentFrame />
      <p>VODs are sold separately and are not part of the membership: each one is a one-time purchase from its own page.</p>
      <h2>Can&apos;t pay by card?</h2>
      <p>
        You can join by e-mail instead: write to {mail} with the username and password you would like, then pay the membership fee through a
        money-transfer service. We will reply with the payment details and activate your account once the transfer arrives. To buy a VOD
        this way, name the VOD you want in your e-mail.
      </p>
      <h2>Cancelling</h2>
      <p>To cancel rebilling, e-mail {mail} or contact the card billing provider&apos;s consumer support; either stops the next charge.</p>
    </article>
  );
}
