import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { InputField } from '../../../components/Field';
import { SubmitWithStatus, type FormMessage } from '../../../components/FormSubmit';
import { HttpError } from '../../api/fetchJson';
import { pausedForMaintenance } from '../../api/maintenance';
import { requestPasswordReset } from '../api/passwordReset';
import { ChallengeRequiredError } from '../api/signIn';
import { HumanCheck } from './HumanCheck';

/** What the server answers every request with, whether or not an account matches. */
export const RESET_SENT = 'If an account matches, we have sent a link to its e-mail address. It works for one hour.';

const CHALLENGE_MESSAGE = 'Too many reset requests for this name from new devices. Please confirm you are a person to continue.';

function problem(error: unknown): string {
  if (error instanceof ChallengeRequiredError) return CHALLENGE_MESSAGE;
  const paused = pausedForMaintenance(error);
  if (paused) return paused;
  if (error instanceof HttpError && error.status === 429) return 'Too many attempts. Wait a minute and try again.';
  if (error instanceof HttpError && error.status === 400) return 'Enter your username or your e-mail address.';
  return 'The link could not be sent. Try again in a moment.';
}

/**
 * /forgot-password: one field, and the same answer for every account, known or not. Past a budget
 * (the name's or this address's, from a browser that has not signed in as it) the server asks for
 * the sign-in's proof of work: the widget shows, and the request goes again once it has solved.
 */
export function ForgotPasswordPage() {
  const [login, setLogin] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<FormMessage>(null);
  // As on the sign-in page: once asked, every request carries a fresh solution (each works once);
  // `round` remounts the widget for the next challenge, `resume` sends as soon as it has solved.
  const [challenged, setChallenged] = useState(false);
  const [round, setRound] = useState(0);
  const [proof, setProof] = useState<string>();
  const [resume, setResume] = useState(false);

  async function send(altcha: string | undefined) {
    setBusy(true);
    setMessage(null);
    try {
      setMessage({ ok: true, text: (await requestPasswordReset(login.trim(), altcha)) || RESET_SENT });
      setResume(false);
    } catch (error) {
      setMessage({ ok: false, text: problem(error) });
      setResume(error instanceof ChallengeRequiredError);
      if (error instanceof ChallengeRequiredError) setChallenged(true);
    } finally {
      if (challenged || altcha !== undefined) {
        setProof(undefined);
        setRound((n) => n + 1);
      }
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (challenged && !proof) {
      setMessage({ ok: false, text: 'Confirming you are a person... Sending as soon as that is done.' });
      setResume(true);
      return;
    }
    void send(proof);
  }

  function verified(payload: string) {
    setProof(payload);
    if (resume) {
      setResume(false);
      void send(payload);
    }
  }

  return (
    <section>
      <h1>Forgot your password?</h1>
      <p className="muted">Enter your username or the e-mail address you joined with. We will send a link to choose a new password.</p>
      <form className="form" onSubmit={submit}>
        <InputField
          id="forgot-login"
          label="Username or e-mail"
          name="login"
          autoComplete="username"
          required
          maxLength={254}
          value={login}
          onValue={setLogin}
        />
        {challenged && <HumanCheck key={round} onVerified={verified} />}
        <SubmitWithStatus busy={busy} label="Send the link" busyLabel="Sending..." message={message} />
      </form>
      <p>
        <Link to="/login">Back to sign in</Link>
      </p>
    </section>
  );
}
