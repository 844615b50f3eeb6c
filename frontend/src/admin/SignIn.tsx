import { useId, useState, type FormEvent } from 'react';
import { adminApi, type Me } from './api';
import { ErrorText } from './ErrorText';
import { useAdminCall } from './useAdminCall';

/** Name and the authenticator app's 6-digit code (passkeys: see the console's README). */
export function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const { error, busy, run } = useAdminCall();
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const me = await run(() => adminApi.signInTotp(name.trim(), code.trim()));
    if (me) onSignedIn(me);
    else setCode('');
  }

  return (
    <main className="admin-signin">
      <h1>Operator console</h1>
      <form onSubmit={(e) => void submit(e)} aria-describedby={error ? `${id}-error` : undefined}>
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          name="name"
          autoComplete="username"
          required
          maxLength={32}
          pattern="[a-z][a-z0-9_]{2,31}"
          value={name}
          onChange={(e) => setName(e.target.value)}
          autoFocus
        />
        <label htmlFor={`${id}-code`}>Code from your authenticator app</label>
        <input
          id={`${id}-code`}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          pattern="\d{6}"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <div id={`${id}-error`}>
          <ErrorText message={error} />
        </div>
      </form>
    </main>
  );
}
