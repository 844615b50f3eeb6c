import { Link } from 'react-router-dom';
import { useAccess } from '../../access/useAccess';
import { membershipPitch } from '../../info/membership';
import { joinPrice, useMembershipOffer } from '../../payment/useMembershipOffer';
import { ContinueWatching } from '../../player/ContinueWatching';
import { SavedRow } from '../../saved/SavedRow';
import { ModelReleasesRow } from '../../saved/ModelReleasesRow';

/** Where a member finds what is new: the galleries sorted by date (spec: `sort=date`), and the VODs. */
const NEWEST: [string, string][] = [
  ['/photos?sort=date', 'New photo sets'],
  ['/videos?sort=date', 'New videos'],
  ['/vod', 'VODs'],
];

/**
 * The top of home, under the 2257 line: a visitor reads what members get and finds Join;
 * a member is welcomed back, with the newest updates a click away and their unfinished videos.
 * Nothing while the session is still being checked, so neither flashes up for the other.
 */
export function HomeHero() {
  const access = useAccess();
  const offer = useMembershipOffer();
  if (access.status === 'visitor')
    return (
      <section className="hero" aria-label="Membership">
        <p className="hero-pitch">{membershipPitch(offer && joinPrice(offer))}</p>
        <p className="hero-actions">
          <Link to="/join" className="button button-primary">
            Join
          </Link>
          <span className="muted">
            Already a member? <Link to="/login">Sign in</Link>
          </span>
        </p>
      </section>
    );
  if (access.status !== 'signedIn') return null;
  return (
    <>
      <section className="hero hero-member" aria-label="Welcome">
        <p className="hero-pitch">Welcome back, {access.member.username}.</p>
        <ul className="hero-links">
          {NEWEST.map(([to, label]) => (
            <li key={to}>
              <Link to={to}>{label}</Link>
            </li>
          ))}
        </ul>
      </section>
      <ContinueWatching />
      <ModelReleasesRow />
      <SavedRow />
    </>
  );
}
