import { NavLink } from 'react-router-dom';
import { setSession, useSessionKeeper } from '../../../hooks/useSession';
import { signOut } from '../api/signOut';

/** The nav's sign-in link, or the member's name and a sign-out button; keeps the media cookie fresh. */
export function SessionLink() {
  const session = useSessionKeeper();
  if (session.status !== 'signedIn') {
    return (
      <NavLink to="/login" className="session-link">
        Sign in
      </NavLink>
    );
  }
  return (
    <span className="session-link">
      <span className="muted">{session.member.username}</span>{' '}
      <button
        type="button"
        className="button"
        onClick={() => {
          void signOut().then(() => setSession({ status: 'signedOut' }));
        }}
      >
        Sign out
      </button>
    </span>
  );
}
