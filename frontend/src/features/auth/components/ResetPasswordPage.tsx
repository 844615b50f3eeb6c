import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { PasswordField, passwordLengthOk } from '../../../components/Field';
import { SubmitButton } from '../../../components/FormSubmit';
import { setSession } from '../../../hooks/useSession';
import { HttpError } from '../../api/fetchJson';
import { pausedForMaintenance } from '../../api/maintenance';
import { confirmPasswordReset, tokenFromHash } from '../api/passwordReset';

export const RESET_LINK_REFUSED = 'This reset link has expired or was already used. Ask for a new one.';

function problem(error: unknown): { text: string; askAgain: boolean } {
  const paused = pausedForMaintenance(error);
  if (paused) return { text: paused, askAgain: false };
  if (error instanceof HttpError && error.status === 400 && !error.serverMessage?.startsWith('newPassword:'))
    return { text: RESET_LINK_REFUSED, askAgain: true };
  if (error instanceof HttpError && error.status === 400) return { text: 'The new password must be 8 to 64 characters.', askAgain: false };
  if (error instanceof HttpError && error.status === 429)
    return { text: 'Too many attempts. Wait a minute and try again.', askAgain: false };
  if (error instanceof HttpError && error.status === 503) return { text: 'The server is busy. Try again in a moment.', askAgain: false };
  return { text: 'The password could not be changed. Try again.', askAgain: false };
}

function AskAgain({ text }: { text: string }) {
  return (
    <div role="alert">
      <p className="status status-error">{text}</p>
      <p>
        <Link className="button" to="/forgot-password">
          Ask for a new link
        </Link>
      </p>
    </div>
  );
}

/** /reset-password#token=…: the new password twice; on success this browser is signed in. */
export function ResetPasswordPage() {
  const location = useLocation();
  const navigate = useNavigate();
  // Read once; the fragment is then dropped from the address bar (and from history) at the first submit.
  const [token] = useState(() => tokenFromHash(location.hash));
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<{ text: string; askAgain: boolean } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!passwordLengthOk(password)) return setError({ text: 'The new password must be 8 to 64 characters.', askAgain: false });
    if (password !== again) return setError({ text: 'The two passwords differ.', askAgain: false });
    setBusy(true);
    setError(null);
    try {
      const member = await confirmPasswordReset(token, password);
      setSession({ status: 'signedIn', member });
      setDone(member.username);
      navigate('/reset-password', { replace: true });
    } catch (err) {
      setError(problem(err));
    } finally {
      setBusy(false);
    }
  }

  if (done !== null) {
    return (
      <section>
        <h1>Choose a new password</h1>
        <p className="status status-ok" role="status">
          Your password was changed.
        </p>
        <p>
          You are signed in as {done}; every other browser was signed out. <Link to="/account">Go to your account</Link>
        </p>
      </section>
    );
  }
  return (
    <section>
      <h1>Choose a new password</h1>
      {!token ? (
        <AskAgain text={RESET_LINK_REFUSED} />
      ) : (
        <form className="form" onSubmit={(event) => void submit(event)}>
          <PasswordField id="reset-new" label="New password (8 to 64 characters)" purpose="new" value={password} onValue={setPassword} />
          <PasswordField id="reset-again" label="New password again" purpose="new" value={again} onValue={setAgain} />
          <SubmitButton busy={busy} label="Change password" busyLabel="Changing..." />
          <div aria-live="polite">
            {error && (error.askAgain ? <AskAgain text={error.text} /> : <p className="status status-error">{error.text}</p>)}
          </div>
        </form>
      )}
    </section>
  );
}
