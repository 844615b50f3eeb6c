import { useId } from 'react';
import type { Enrolment } from '../shared/api';
import { QrCode } from './QrCode';

/** A new admin's (or a reset) secret: shown once, as text, as an otpauth:// URI and as its QR code. */
export function EnrolmentPanel({ e, onDone }: { e: Enrolment; onDone: () => void }) {
  const id = useId();
  return (
    <section className="admin-enrolment" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>TOTP secret for {e.name}: shown once</h2>
      <p>
        Give it to {e.name} now, by a private channel: they add it to an authenticator app, then sign in at /admin with their name and a
        6-digit code, and add a passkey there. Nobody can show it again; a lost one needs a new secret.
      </p>
      <p>
        <span id={`${id}-s`}>Secret</span>:{' '}
        <code aria-labelledby={`${id}-s`} className="admin-secret">
          {e.secret}
        </code>{' '}
        <span className="admin-hint">(base32: letters A-Z and digits 2-7 only, so never a zero or a one)</span>
      </p>
      <QrCode text={e.uri} label={`QR code of ${e.name}'s enrolment URI: scan it with an authenticator app`} />
      <label htmlFor={`${id}-uri`}>Enrolment URI (scan the QR code above, or paste this into an authenticator app)</label>
      <textarea id={`${id}-uri`} readOnly rows={3} value={e.uri} onFocus={(ev) => ev.target.select()} />
      <p>
        <button type="button" onClick={onDone}>
          Done: hide the secret
        </button>
      </p>
    </section>
  );
}
