import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { HttpError } from '../../api/fetchJson';
import { setSession } from '../../../hooks/useSession';
import { signIn } from '../api/signIn';
import { safeNext } from '../next';

function messageFor(error: unknown): string {
  if (error instanceof HttpError && (error.status === 401 || error.status === 400)) return 'Wrong username or password.';
  if (error instanceof HttpError && error.status === 429) return 'Too many attempts. Wait a minute and try again.';
  // `npm run catalog -- member disable`: the password was right, the account is switched off.
  if (error instanceof HttpError && error.status === 403) return 'This account has been disabled. Contact support.';
  return error instanceof Error ? `Error: ${error.message}` : 'Error: sign-in failed';
}

export function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      const member = await signIn(username.trim(), password);
      setSession({ status: 'signedIn', member });
      navigate(safeNext(params.get('next')), { replace: true });
    } catch (err) {
      setError(messageFor(err));
      setBusy(false);
    }
  }

  return (
    <section>
      <h1>Sign in</h1>
      <p className="muted">Members sign in with the username and password chosen when joining.</p>
      <form className="form" onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label htmlFor="login-username">Username</label>
          <input id="login-username" name="username" autoComplete="username" required maxLength={15} value={username} onChange={(e) => setUsername(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="login-password">Password</label>
          <input id="login-password" name="password" type="password" autoComplete="current-password" required maxLength={64} value={password} onChange={(e) => setPassword(e.target.value)} />
        </div>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Signing in...' : 'Sign in'}
        </button>
        <div role="status" aria-live="polite">
          {error && <p className="status status-error">{error}</p>}
        </div>
      </form>
    </section>
  );
}
