import { useCallback, useEffect, useState } from 'react';
import { ConsoleRoutes } from './routes';
import { AdminApiError, adminApi, type Me } from './shared/api';
import { SignIn } from './sign-in/SignIn';

/** Signed in or not (GET /api/admin/me decides), then the screens the role may use. */
export function Console() {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const signedOut = useCallback(() => setMe(null), []);
  // The first check could not say who is signed in (the server is down or slow): not a sign-out.
  const [unreachable, setUnreachable] = useState('');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    setUnreachable('');
    adminApi.me().then(setMe, (err: unknown) => {
      if (err instanceof AdminApiError && (err.status === 0 || err.status >= 500)) setUnreachable(err.message);
      else signedOut();
    });
  }, [signedOut, attempt]);

  // Signed in, the layout names the screen instead.
  useEffect(() => {
    if (!me) document.title = 'Sign in · Operator console';
  }, [me]);

  if (me === undefined && unreachable)
    return (
      <div className="admin-loading" role="alert">
        <p>The console cannot reach the server: {unreachable}</p>
        <button type="button" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </div>
    );
  if (me === undefined) return <p className="admin-loading">Loading…</p>;
  if (me === null) return <SignIn onSignedIn={setMe} />;
  return <ConsoleRoutes me={me} onSignedOut={signedOut} />;
}
