import { useState } from 'react';
import { InputField, PasswordField } from '../../../components/Field';
import { SubmitWithStatus, useFormSubmit } from '../../../components/FormSubmit';
import { HttpError } from '../../api/fetchJson';
import { pausedForMaintenance } from '../../api/maintenance';
import { requestEmailChange } from '../api/email';

/** An address has no spaces: up to 254 characters must wrap anywhere at 390 px rather than widen the page. */
export const BREAK_ANYWHERE = { overflowWrap: 'anywhere' } as const;

function problem(error: unknown): string {
  const paused = pausedForMaintenance(error);
  if (paused) return paused;
  if (error instanceof HttpError && error.status === 403) return 'The current password is wrong.';
  if (error instanceof HttpError && error.status === 429) return 'Too many attempts. Try again later.';
  if (error instanceof HttpError && error.status === 401) return 'Your session has ended. Sign in again.';
  if (error instanceof HttpError && error.serverMessage === 'email: this is already your address') return 'This is already your address.';
  if (error instanceof HttpError && error.status === 400)
    return 'Enter a valid e-mail address (at most 254 characters) and your current password.';
  return 'The change could not be requested. Try again.';
}

/** /account's e-mail address: shown, and changed by a link sent to the new address. */
export function EmailSection({ email }: { email: string }) {
  const [next, setNext] = useState('');
  const [password, setPassword] = useState('');
  const { busy, message, submit } = useFormSubmit();

  async function change(): Promise<string> {
    const wanted = next.trim();
    await requestEmailChange(wanted, password);
    setNext('');
    setPassword('');
    return `We sent a confirmation link to ${wanted}. Your address changes when you open it.`;
  }

  return (
    <section className="account-section" aria-labelledby="account-email">
      <h2 id="account-email">E-mail</h2>
      <p data-testid="account-email" className="account-email" style={BREAK_ANYWHERE}>
        {email || <span className="muted">No address yet.</span>}
      </p>
      <form className="form" onSubmit={(event) => void submit(event, change, problem)}>
        <InputField
          id="email-new"
          label="New e-mail address"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          value={next}
          onValue={setNext}
        />
        <PasswordField id="email-password" label="Current password (to confirm)" purpose="current" value={password} onValue={setPassword} />
        <SubmitWithStatus busy={busy} label="Change e-mail" busyLabel="Sending..." message={message} style={BREAK_ANYWHERE} />
      </form>
    </section>
  );
}
