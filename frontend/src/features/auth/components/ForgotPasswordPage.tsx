import { useState } from 'react';
import { Link } from 'react-router-dom';
import { InputField } from '../../../components/Field';
import { SubmitWithStatus, useFormSubmit } from '../../../components/FormSubmit';
import { HttpError } from '../../api/fetchJson';
import { requestPasswordReset } from '../api/passwordReset';

/** What the server answers every request with, whether or not an account matches. */
export const RESET_SENT = 'If an account matches, we have sent a link to its e-mail address. It works for one hour.';

function problem(error: unknown): string {
  if (error instanceof HttpError && error.status === 429) return 'Too many attempts. Wait a minute and try again.';
  if (error instanceof HttpError && error.status === 400) return 'Enter your username or your e-mail address.';
  return 'The link could not be sent. Try again in a moment.';
}

/** /forgot-password: one field, and the same answer for every account, known or not. */
export function ForgotPasswordPage() {
  const [login, setLogin] = useState('');
  const { busy, message, submit } = useFormSubmit();

  return (
    <section>
      <h1>Forgot your password?</h1>
      <p className="muted">Enter your username or the e-mail address you joined with. We will send a link to choose a new password.</p>
      <form
        className="form"
        onSubmit={(event) => void submit(event, async () => (await requestPasswordReset(login.trim())) || RESET_SENT, problem)}
      >
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
        <SubmitWithStatus busy={busy} label="Send the link" busyLabel="Sending..." message={message} />
      </form>
      <p>
        <Link to="/login">Back to sign in</Link>
      </p>
    </section>
  );
}
