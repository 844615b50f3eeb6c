import { useId, useState, type FormEvent } from 'react';
import { adminApi, type Me } from './api';
import { ErrorText } from './ErrorText';
import { signInWithPasskey } from './passkeys';
import { useAdminCall } from './useAdminCall';

/** A passkey, or the fallback: name and the authenticator app's 6-digit code. */
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

  async function passkey() {
    const me = await run(signInWithPasskey);
    if (me) onSignedIn(me);
  }

  return (
    <main className="admin-signin">
      <h1>Operator console</h1>
      <button type="button" onClick={() => void passkey()} disabled={busy}>
        Use a passkey
      </button>
      <p className="admin-or">or with a code from your authenticator app</p>
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
        <button type="submit" className="admin-secondary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <div id={`${id}-error`}>
          <ErrorText message={error} />
        </div>
      </form>
    </main>
  );
}
