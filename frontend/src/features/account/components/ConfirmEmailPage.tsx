import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { HttpError } from '../../api/fetchJson';
import { pausedForMaintenance } from '../../api/maintenance';
import { tokenFromHash } from '../../auth/api/passwordReset';
import { confirmEmailChange } from '../api/email';
import { BREAK_ANYWHERE } from './EmailSection';

export const EMAIL_LINK_REFUSED = 'This confirmation link has expired or was already used. Ask for a new one from your account page.';

type State = { step: 'working' } | { step: 'done'; email: string } | { step: 'failed'; text: string };

function problem(error: unknown): string {
  const paused = pausedForMaintenance(error);
  if (paused) return paused;
  if (error instanceof HttpError && error.status === 400) return EMAIL_LINK_REFUSED;
  if (error instanceof HttpError && error.status === 429) return 'Too many attempts. Wait a minute and open the link again.';
  return 'The address could not be confirmed. Open the link again in a moment.';
}

/** /confirm-email#token=…: confirms on opening (signed in or not: the link is the proof). */
export function ConfirmEmailPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => tokenFromHash(location.hash));
  const [state, setState] = useState<State>(token ? { step: 'working' } : { step: 'failed', text: EMAIL_LINK_REFUSED });
  // A link works once: the effect running twice (StrictMode, a re-render) must not spend it twice.
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    confirmEmailChange(token)
      .then((email) => {
        setState({ step: 'done', email });
        navigate('/confirm-email', { replace: true });
      })
      .catch((error: unknown) => setState({ step: 'failed', text: problem(error) }));
  }, [token, navigate]);

  return (
    <section>
      <h1>Confirm your e-mail address</h1>
      {state.step === 'working' && <p role="status">Confirming...</p>}
      {state.step === 'done' && (
        <p className="status status-ok" role="status" style={BREAK_ANYWHERE}>
          Your e-mail address is now {state.email}.
        </p>
      )}
      {state.step === 'failed' && (
        <p className="status status-error" role="alert">
          {state.text}
        </p>
      )}
      {state.step !== 'working' && (
        <p>
          <Link to="/account">Your account</Link>
        </p>
      )}
    </section>
  );
}
