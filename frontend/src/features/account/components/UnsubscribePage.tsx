import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { usePageTitle } from '../../../hooks/usePageTitle';
import { HttpError } from '../../api/fetchJson';
import { pausedForMaintenance } from '../../api/maintenance';
import { tokenFromHash } from '../../auth/api/passwordReset';
import { unsubscribeReleaseMail } from '../api/account';

export const UNSUBSCRIBE_LINK_UNKNOWN = 'This link is not known or is over a year old. Switch release mails off on your account page.';

function problem(error: unknown): string {
  const paused = pausedForMaintenance(error);
  if (paused) return paused;
  if (error instanceof HttpError && (error.status === 404 || error.status === 400)) return UNSUBSCRIBE_LINK_UNKNOWN;
  if (error instanceof HttpError && error.status === 429) return 'Too many attempts. Wait a minute and try again.';
  return 'That did not work just now. Try again in a moment.';
}

type State = { step: 'asking' } | { step: 'working' } | { step: 'done'; text: string } | { step: 'failed'; text: string };

/**
 * /unsubscribe#token=…: a release mail's "Stop release mails" link. It asks for one click (a link
 * scanner that opens the page stops nothing), then sends what a mail app's one-click button sends.
 */
export function UnsubscribePage() {
  usePageTitle('Stop release mails');
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => tokenFromHash(location.hash));
  const [state, setState] = useState<State>(token ? { step: 'asking' } : { step: 'failed', text: UNSUBSCRIBE_LINK_UNKNOWN });
  const stop = () => {
    setState({ step: 'working' });
    unsubscribeReleaseMail(token)
      .then((text) => {
        setState({ step: 'done', text });
        // The token leaves the address bar (and the history) once used.
        navigate('/unsubscribe', { replace: true });
      })
      .catch((error: unknown) => setState({ step: 'failed', text: problem(error) }));
  };
  return (
    <section>
      <h1>Stop release mails</h1>
      {(state.step === 'asking' || state.step === 'working') && (
        <>
          <p>Stop the e-mails about new releases from the models you follow?</p>
          <p>
            <button type="button" className="button button-primary" disabled={state.step === 'working'} onClick={stop}>
              {state.step === 'working' ? 'Stopping…' : 'Stop release mails'}
            </button>
          </p>
        </>
      )}
      {state.step === 'done' && (
        <p className="status status-ok" role="status">
          {state.text}
        </p>
      )}
      {state.step === 'failed' && (
        <p className="status status-error" role="alert">
          {state.text}
        </p>
      )}
      <p>
        <Link to="/account">Your account</Link>
      </p>
    </section>
  );
}
