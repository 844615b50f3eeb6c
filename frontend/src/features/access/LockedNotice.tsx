import { Link, useLocation } from 'react-router-dom';
import type { Access } from './useAccess';

/** `/login?next=<here>`: sign-in returns to the page that sent the visitor. */
export function signInHref(pathname: string, search = ''): string {
  return `/login?next=${encodeURIComponent(pathname + search)}`;
}

/**
 * The call to action beside anything members-only: says what it is and what to do. Visitors get
 * Join and Sign in; a signed-in account without an active membership gets Join.
 */
export function LockedNotice({
  access,
  what,
  joinLabel = 'Join to see the full set',
}: {
  access: Access;
  what: string;
  joinLabel?: string;
}) {
  const location = useLocation();
  if (access.status === 'unknown') return null;
  return (
    <div className="locked-notice" role="note">
      <p>
        {what} {access.status === 'visitor' ? 'is for members.' : 'opens with a membership.'}
      </p>
      <p className="button-row">
        <Link className="button button-primary" to="/join">
          {joinLabel}
        </Link>
        {access.status === 'visitor' ? (
          <Link className="button" to={signInHref(location.pathname, location.search)}>
            Sign in
          </Link>
        ) : null}
      </p>
    </div>
  );
}
