import { useId, useState, type FormEvent } from 'react';
import { HumanCheck } from '../../features/auth/components/HumanCheck';
import { adminApi, AdminApiError, type Me } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { signInWithPasskey } from '../shared/webauthn';
import { useAdminCall } from '../shared/useAdminCall';

/**
 * A passkey, or the fallback: name and the authenticator app's 6-digit code. After several wrong
 * codes the API asks for a proof of work (as members' sign-in does): the same widget solves it in
 * about a second, and the code goes again with it. Nothing locks the account.
 */
export function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [check, setCheck] = useState<{ round: number; payload: string } | null>(null);
  const { error, busy, run } = useAdminCall();
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const proof = check?.payload || undefined;
    const me = await run(async () => {
      try {
        return await adminApi.signInTotp(name.trim(), code.trim(), proof);
      } catch (err) {
        // A fresh widget (a new challenge) for the next try: each solution works once.
        if (err instanceof AdminApiError && err.code === 'challenge_required')
          setCheck((c) => ({ round: (c?.round ?? 0) + 1, payload: '' }));
        throw err;
      }
    });
    if (me) onSignedIn(me);
    else setCode('');
    if (!me && proof) setCheck((c) => (c ? { round: c.round + 1, payload: '' } : c));
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
        {check && <HumanCheck key={check.round} onVerified={(payload) => setCheck((c) => (c ? { ...c, payload } : c))} />}
        <button type="submit" className="admin-secondary" disabled={busy || (check !== null && !check.payload)}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <div id={`${id}-error`}>
          <ErrorText message={error} />
        </div>
      </form>
    </main>
  );
}
