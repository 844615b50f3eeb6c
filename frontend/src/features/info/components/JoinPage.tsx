import { JOIN_FEE, SITE_EMAIL } from '../../../config/site';

export function JoinPage() {
  const mail = <a href={`mailto:${SITE_EMAIL}?subject=Membership`}>{SITE_EMAIL}</a>;
  return (
    <article className="prose">
      <h1>Join</h1>
      <p>
        While card payments are being set up, you can join temporarily: e-mail {mail} with the username and password you
        would like, then pay the {JOIN_FEE} membership fee through a money-transfer service. We will reply with the
        payment details and activate your account once the transfer arrives.
      </p>
      <p>
        To buy a VOD, name the VOD you want in your e-mail. VOD purchases are sold separately and are not part of the
        membership.
      </p>
      <h2>Join by card</h2>
      <iframe className="join-frame" src="/ccbill" title="Membership payment form" height={600} />
      <h2>Cancelling</h2>
      <p>
        To cancel rebilling, e-mail {mail} or contact the card billing provider&apos;s consumer support; either stops the
        next charge.
      </p>
    </article>
  );
}
