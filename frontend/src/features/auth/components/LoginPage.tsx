import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { InputField, PasswordField } from '../../../components/Field';
import { errorMessage, SubmitWithStatus } from '../../../components/FormSubmit';
import { HttpError } from '../../api/fetchJson';
import { setSession } from '../../../hooks/useSession';
import { ChallengeRequiredError, signIn } from '../api/signIn';
import { safeNext } from '../next';
import { HumanCheck } from './HumanCheck';

const CHALLENGE_MESSAGE = 'Too many sign-in attempts for this account from new devices. Please confirm you are a person to continue.';

function messageFor(error: unknown): string {
  if (error instanceof ChallengeRequiredError) return CHALLENGE_MESSAGE;
  // A full password-checking queue on the server: a moment later it has room.
  if (error instanceof HttpError && error.status === 503) return 'The server is busy. Try again in a moment.';
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
  // Once the server asked for a proof of work: the widget shows, each attempt then carries a fresh
  // solution (they work once), and `round` remounts the widget for the next challenge.
  const [challenged, setChallenged] = useState(false);
  const [round, setRound] = useState(0);
  const [proof, setProof] = useState<string>();
  // The member pressed Sign in and is waiting on the widget: send as soon as it has solved.
  const [resume, setResume] = useState(false);

  async function attempt(altcha: string | undefined) {
    setBusy(true);
    setError('');
    try {
      const member = await signIn(username.trim(), password, altcha);
      setSession({ status: 'signedIn', member });
      navigate(safeNext(params.get('next')), { replace: true });
    } catch (err) {
      if (err instanceof ChallengeRequiredError || challenged) {
        setChallenged(true);
        setProof(undefined);
        setRound((n) => n + 1);
      }
      // Never again on its own after a wrong password: the member corrects it and presses Sign in.
      setResume(err instanceof ChallengeRequiredError);
      setError(messageFor(err));
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (challenged && !proof) {
      setError('Confirming you are a person... Signing in as soon as that is done.');
      setResume(true);
      return;
    }
    void attempt(proof);
  }

  function verified(payload: string) {
    setProof(payload);
    if (resume) {
      setResume(false);
      void attempt(payload);
    }
  }

  return (
    <section>
      <h1>Sign in</h1>
      <p className="muted">Members sign in with the username and password chosen when joining.</p>
      <form className="form" onSubmit={submit}>
        <InputField
          id="login-username"
          label="Username"
          name="username"
          autoComplete="username"
          required
          maxLength={15}
          value={username}
          onValue={setUsername}
        />
        <PasswordField id="login-password" label="Password" name="password" purpose="current" value={password} onValue={setPassword} />
        {challenged && <HumanCheck key={round} onVerified={verified} />}
        <SubmitWithStatus busy={busy} label="Sign in" busyLabel="Signing in..." message={errorMessage(error)} />
      </form>
      <p>
        <Link to="/forgot-password">Forgot password?</Link>
      </p>
      <p>
        Not a member? <Link to="/join">Join</Link>
      </p>
    </section>
  );
}
