import { useState } from 'react';
import { Link } from 'react-router-dom';
import { HttpError } from '../../api/fetchJson';
import { pausedForMaintenance } from '../../api/maintenance';
import { setReleaseMail } from '../api/account';

function problem(error: unknown): string {
  const paused = pausedForMaintenance(error);
  if (paused) return paused;
  if (error instanceof HttpError && error.status === 401) return 'Your session has ended. Sign in again.';
  if (error instanceof HttpError && error.status === 429) return 'Too many changes. Wait a minute and try again.';
  return 'The setting could not be saved. Try again.';
}

/** Release mails on /account: one switch, saved as it is clicked. */
export function ReleaseMailSection({ on: initial }: { on: boolean }) {
  const [on, setOn] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  // The box shows the choice at once and goes back if it could not be saved.
  const change = (next: boolean) => {
    setOn(next);
    setBusy(true);
    setStatus(null);
    setReleaseMail(next)
      .then((state) => {
        setOn(state.releaseMail);
        setStatus({ ok: true, text: state.releaseMail ? 'Saved: we will e-mail you new releases.' : 'Saved: no release mails.' });
      })
      .catch((error: unknown) => {
        setOn(!next);
        setStatus({ ok: false, text: problem(error) });
      })
      .finally(() => setBusy(false));
  };
  return (
    <section className="account-section" aria-labelledby="account-release-mail">
      <h2 id="account-release-mail">Release mails</h2>
      <label className="checkbox-row">
        <input type="checkbox" checked={on} disabled={busy} onChange={(event) => change(event.target.checked)} />
        <span>
          E-mail me when models in <Link to="/my-list">My list</Link> release something new
        </span>
      </label>
      <p className="muted">
        At most one mail every 15 minutes, with a link that stops them in one click. Follow a model with ♡ Follow on her page.
      </p>
      {status && (
        <p className={`status ${status.ok ? 'status-ok' : 'status-error'}`} role={status.ok ? 'status' : 'alert'}>
          {status.text}
        </p>
      )}
    </section>
  );
}
