import { useCallback, useState } from 'react';
import { refreshSession } from '../hooks/useSession';
import { useRetryAfterPause } from './StatusMessage';

export const OUTAGE_TEXT = "We can't reach the site right now. Your session is still there; try again in a moment.";

/**
 * Shown instead of the sign-in form when the session check got no answer (the bff is away, a
 * gateway error): the member is most likely still signed in, so sending them to sign in would be
 * wrong. A page's read (`onRetry`) is asked again on its own after a growing pause, so the page heals
 * when the site is back; Retry asks at once. /api/me's answer updates every page that waits on the session.
 */
/** `cause`: the page read's error (a new one, after another failed try, arms the next try). */
export function OutageNotice({ onRetry, cause }: { onRetry?: () => void; cause?: Error }) {
  const [busy, setBusy] = useState(false);
  const retry = useCallback(() => {
    setBusy(true);
    onRetry?.();
    void refreshSession().finally(() => setBusy(false));
  }, [onRetry]);
  // A resource's read (onRetry) asks again on its own; the session check is asked again by
  // useSessionKeeper during an outage.
  useRetryAfterPause(onRetry ? retry : undefined, cause);
  return (
    <div className="notice-card" role="alert">
      <h2>Can&apos;t reach the site</h2>
      <p>{OUTAGE_TEXT}</p>
      <p className="button-row">
        <button type="button" className="button button-primary" onClick={retry} disabled={busy}>
          {busy ? 'Trying again...' : 'Retry'}
        </button>
      </p>
    </div>
  );
}
