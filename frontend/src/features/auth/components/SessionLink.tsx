import { NavLink, useLocation } from 'react-router-dom';
import { signInHref } from '../../access/LockedNotice';
import { setSession, useSessionKeeper } from '../../../hooks/useSession';
import { signOut } from '../api/signOut';

/** The nav's sign-in link, or the member's name and a sign-out button; keeps the media cookie fresh. */
export function SessionLink() {
  const session = useSessionKeeper();
  const { pathname, search } = useLocation();
  if (session.status !== 'signedIn') {
    // Sign-in returns here (not from /login itself, nor to the welcome of a payment).
    const here = pathname === '/login' || pathname === '/' ? '/login' : signInHref(pathname, search);
    return (
      <NavLink to={here} className="session-link">
        Sign in
      </NavLink>
    );
  }
  return (
    <span className="session-link session-member">
      <NavLink to="/my-list" className="session-list">
        My list
      </NavLink>{' '}
      <span className="session-name" title={session.member.username}>
        {session.member.username}
      </span>{' '}
      <button
        type="button"
        className="button button-small"
        onClick={() => {
          void signOut().then(() => setSession({ status: 'signedOut' }));
        }}
      >
        Sign out
      </button>
    </span>
  );
}
