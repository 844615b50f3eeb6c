import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { adminApi, AdminApiError } from './api';
import { handleConfirmations } from './confirmation';
import { ErrorText } from './ErrorText';
import { confirmWithPasskey } from './webauthn';

/**
 * "Confirm it is you": asked when a change needs a fresh proof (passkeys, admins, roles, secrets).
 * A passkey, or a new code from the authenticator app (the one the admin signed in with works once).
 * A modal <dialog>, so focus stays in it; Escape or Cancel leaves the change undone.
 */
export function ConfirmDialog({ onSignedOut }: { onSignedOut: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const pending = useRef<((confirmed: boolean) => void) | null>(null);
  // Which ask is open (each starts with an empty form), or null when closed.
  const [asked, setAsked] = useState<number | null>(null);
  const id = useId();

  useEffect(
    () =>
      handleConfirmations((done) => {
        pending.current?.(false);
        pending.current = done;
        setAsked((n) => (n ?? 0) + 1);
      }),
    [],
  );

  const open = asked !== null;
  useEffect(() => {
    const element = dialog.current;
    if (open && element && !element.open) element.showModal();
    if (!open && element?.open) element.close();
  }, [open]);

  function finish(confirmed: boolean) {
    setAsked(null);
    const done = pending.current;
    pending.current = null;
    done?.(confirmed);
  }

  return (
    <dialog
      ref={dialog}
      className="admin-dialog"
      aria-labelledby={`${id}-h`}
      onCancel={(e) => {
        e.preventDefault();
        finish(false);
      }}
    >
      {open && <Proof key={asked} titleId={`${id}-h`} onFinish={finish} onSignedOut={onSignedOut} />}
    </dialog>
  );
}

/** A passkey, or a new code from the authenticator app; a 401 (the session ended) goes back to sign-in. */
function Proof({ titleId, onFinish, onSignedOut }: { titleId: string; onFinish: (confirmed: boolean) => void; onSignedOut: () => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();

  async function attempt(prove: () => Promise<unknown>) {
    setBusy(true);
    setError('');
    try {
      await prove();
      onFinish(true);
    } catch (err) {
      if (err instanceof AdminApiError && err.status === 401) {
        onFinish(false);
        onSignedOut();
      } else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void attempt(() => adminApi.confirmTotp(code.trim())).finally(() => setCode(''));
  }

  return (
    <>
      <h2 id={titleId}>Confirm it is you</h2>
      <p>This change needs a fresh proof that it is you. It lasts a few minutes for this session.</p>
      <button type="button" onClick={() => void attempt(confirmWithPasskey)} disabled={busy}>
        Use a passkey
      </button>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-code`}>New code from your authenticator app</label>
        <p className="admin-hint" id={`${id}-hint`}>
          Not the code you signed in with: each code works once, so wait for the next one.
        </p>
        <input
          id={`${id}-code`}
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          pattern="\d{6}"
          maxLength={6}
          aria-describedby={`${id}-hint`}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoFocus
        />
        <span className="admin-inline">
          <button type="submit" className="admin-secondary" disabled={busy}>
            Confirm
          </button>
          <button type="button" className="admin-secondary" onClick={() => onFinish(false)}>
            Cancel
          </button>
        </span>
      </form>
      <ErrorText message={error} />
    </>
  );
}
