import { Link, Navigate } from 'react-router-dom';
import { OutageNotice } from '../../../components/OutageNotice';
import { Loading } from '../../../components/StatusMessage';
import { signInHref } from '../../access/LockedNotice';
import { mayViewMembersArea, useAccess } from '../../access/useAccess';

/** Where an approved membership lands (on /ccbill or from /join's frame): signed in, and what is open now. */
export function WelcomePage() {
  const access = useAccess();
  if (access.status === 'unknown') return access.unreachable ? <OutageNotice /> : <Loading />;
  if (access.status === 'visitor') return <Navigate to={signInHref('/welcome')} replace />;
  const open = mayViewMembersArea(access);
  return (
    <section className="prose">
      <h1>Welcome, {access.member.username}</h1>
      {open ? (
        <>
          <p>
            Your membership is active until {access.member.membership.paidUntil}. You are signed in on this browser, and everything for
            members is open now:
          </p>
          <ul>
            <li>
              <Link to="/photos">Photos</Link>: every photo set in full size
            </li>
            <li>
              <Link to="/videos">Videos</Link>: watch and download every video
            </li>
            <li>
              <Link to="/vod">VODs</Link>: sold separately; buy one and it stays yours
            </li>
          </ul>
        </>
      ) : (
        <p>You are signed in. Your membership is being activated; this can take a few minutes after the card processor confirms.</p>
      )}
      <p>
        <Link className="button button-primary" to="/photos">
          See the photos
        </Link>{' '}
        <Link className="button" to="/account">
          Your account
        </Link>
      </p>
    </section>
  );
}
