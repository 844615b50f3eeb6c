import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { SITE_EMAIL } from '../../../config/site';
import { PasswordField, passwordLengthOk } from '../../../components/Field';
import { SubmitWithStatus, useFormSubmit } from '../../../components/FormSubmit';
import { OutageNotice } from '../../../components/OutageNotice';
import { ErrorMessage, isRetryable, Loading } from '../../../components/StatusMessage';
import { useResource } from '../../../hooks/useResource';
import { setSession } from '../../../hooks/useSession';
import { signInHref } from '../../access/LockedNotice';
import { useAccess } from '../../access/useAccess';
import { HttpError } from '../../api/fetchJson';
import { pausedForMaintenance } from '../../api/maintenance';
import { DownloadButton } from '../../auth/components/DownloadButton';
import { DownloadChoices } from '../../player/DownloadChoices';
import { cancelRenewal, changePassword, getAccount, signOutEverywhere, type AccountView } from '../api/account';
import { EmailSection } from './EmailSection';
import { ReleaseMailSection } from './ReleaseMailSection';

function passwordProblem(error: unknown): string {
  const paused = pausedForMaintenance(error);
  if (paused) return paused;
  if (error instanceof HttpError && error.status === 403) return 'The current password is wrong.';
  if (error instanceof HttpError && error.status === 429) return 'Too many attempts. Try again in 15 minutes.';
  if (error instanceof HttpError && error.status === 401) return 'Your session has ended. Sign in again.';
  if (error instanceof HttpError && error.status === 400)
    return 'The new password must be 8 to 64 characters and differ from the current one.';
  return 'The password could not be changed. Try again.';
}

function cancelProblem(error: unknown): string {
  const paused = pausedForMaintenance(error);
  if (paused) return paused;
  if (error instanceof HttpError && error.serverMessage && error.status !== 401) return error.serverMessage;
  if (error instanceof HttpError && error.status === 401) return 'Your session has ended. Sign in again.';
  return 'The renewal could not be cancelled just now. Try again in a few minutes.';
}

/**
 * Cancel renewal in two presses (the second says exactly what happens); the provider stops the
 * rebilling, the page then says when the membership ends. Where the site cannot cancel online,
 * the way by e-mail.
 */
function CancelRenewal({ paidUntil, onCancelled }: { paidUntil: string | null; onCancelled: (paidUntil: string | null) => void }) {
  const [asking, setAsking] = useState(false);
  const { busy, message, submit } = useFormSubmit();
  if (!asking)
    return (
      <p>
        <button type="button" className="button" onClick={() => setAsking(true)}>
          Cancel renewal
        </button>
      </p>
    );
  return (
    <form
      className="cancel-renewal"
      onSubmit={(event) =>
        void submit(
          event,
          async () => {
            const done = await cancelRenewal();
            onCancelled(done.paidUntil);
          },
          cancelProblem,
        )
      }
    >
      <p>Cancel the renewal? You will not be charged again{paidUntil ? `, and your membership stays active until ${paidUntil}` : ''}.</p>
      <p className="button-row">
        <button type="submit" className="button button-danger" disabled={busy}>
          {busy ? 'Cancelling…' : 'Yes, cancel renewal'}
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => setAsking(false)}>
          Keep my membership
        </button>
      </p>
      {message && (
        <p className="status status-error" role="alert">
          {message.text}
        </p>
      )}
    </form>
  );
}

function Membership({ account }: { account: AccountView }) {
  const [cancelled, setCancelled] = useState<{ paidUntil: string | null } | null>(null);
  const { active, paidUntil, cancellable } = account.membership;
  const renews = account.membership.renews && !cancelled;
  const until = cancelled?.paidUntil ?? paidUntil;
  let text: string;
  if (active)
    text = renews ? `Active, paid until ${paidUntil}; renews automatically.` : `Your membership ends on ${until}. It will not renew.`;
  else text = paidUntil ? `Ended on ${paidUntil}.` : 'No membership.';
  return (
    <section className="account-section" aria-labelledby="account-membership">
      <h2 id="account-membership">Membership</h2>
      <p data-testid="membership-status">{text}</p>
      {cancelled && (
        <p className="status status-ok" role="status">
          Renewal cancelled. We sent a confirmation by e-mail.
        </p>
      )}
      {!active && (
        <p>
          <Link className="button button-primary" to="/join">
            Join
          </Link>
        </p>
      )}
      {active && renews && cancellable && <CancelRenewal paidUntil={paidUntil} onCancelled={(day) => setCancelled({ paidUntil: day })} />}
      {active && renews && !cancellable && (
        <p className="muted">
          To cancel rebilling, e-mail <a href={`mailto:${SITE_EMAIL}?subject=Cancel%20rebilling`}>{SITE_EMAIL}</a> or contact the card
          billing provider&apos;s consumer support; either stops the next charge. Your access runs until the paid-until date.
        </p>
      )}
      {active && renews && cancellable && (
        <p className="muted">
          Or e-mail <a href={`mailto:${SITE_EMAIL}?subject=Cancel%20rebilling`}>{SITE_EMAIL}</a>, or the card billing provider&apos;s
          consumer support. Your access runs until the paid-until date either way.
        </p>
      )}
    </section>
  );
}

function Vods({ account }: { account: AccountView }) {
  return (
    <section className="account-section" aria-labelledby="account-vods">
      <h2 id="account-vods">Your VODs</h2>
      {account.vodItems.length === 0 ? (
        <p className="muted">
          None yet. <Link to="/vod">Browse the VODs</Link>.
        </p>
      ) : (
        <ul className="account-vods">
          {account.vodItems.map((vod, i) =>
            'removed' in vod ? (
              <li key={`removed-${i}`}>
                <span className="muted">A VOD you bought</span> <span className="status">Removed</span>
                <span className="muted"> (taken down from the site; it can no longer be downloaded)</span>
              </li>
            ) : (
              <li key={vod.path}>
                <Link to={`/vod/${encodeURIComponent(vod.path)}`}>{vod.updatename}</Link>
                <DownloadButton path={vod.download} label={`Download ${vod.updatename}`} className="button" />
                <DownloadChoices downloads={vod.downloads} />
              </li>
            ),
          )}
        </ul>
      )}
      <p className="muted">Download links work for 48 hours and can be resumed.</p>
    </section>
  );
}

function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const { busy, message, setMessage, submit } = useFormSubmit();

  function onSubmit(event: FormEvent) {
    if (!passwordLengthOk(next)) {
      event.preventDefault();
      setMessage({ ok: false, text: 'The new password must be 8 to 64 characters.' });
      return;
    }
    void submit(event, change, passwordProblem);
  }

  async function change(): Promise<string> {
    await changePassword(current, next);
    setCurrent('');
    setNext('');
    return 'Password changed. Other browsers are signed out.';
  }

  return (
    <section className="account-section" aria-labelledby="account-password">
      <h2 id="account-password">Change password</h2>
      <form className="form" onSubmit={onSubmit}>
        <PasswordField id="account-current" label="Current password" purpose="current" value={current} onValue={setCurrent} />
        <PasswordField id="account-new" label="New password (8 to 64 characters)" purpose="new" value={next} onValue={setNext} />
        <SubmitWithStatus busy={busy} label="Change password" busyLabel="Changing..." message={message} />
      </form>
    </section>
  );
}

function SignOutEverywhere() {
  const navigate = useNavigate();
  const [error, setError] = useState('');
  return (
    <section className="account-section" aria-labelledby="account-sessions">
      <h2 id="account-sessions">Sign out everywhere</h2>
      <p className="muted">Ends every session of this account, on every browser and device, including this one.</p>
      <button
        type="button"
        className="button"
        onClick={() => {
          setError('');
          signOutEverywhere()
            .then(() => {
              navigate('/login', { replace: true });
              setSession({ status: 'signedOut' });
            })
            .catch(() => setError('Could not sign out everywhere. Try again.'));
        }}
      >
        Sign out everywhere
      </button>
      {error && (
        <p className="status status-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function AccountDetails({ username }: { username: string }) {
  const account = useResource(`account:${username}`, (signal) => getAccount(signal));
  if (account.status === 'loading') return <Loading />;
  if (account.status === 'error') {
    // The bff went away between /api/me and /api/account: an outage, not an account problem.
    if (isRetryable(account.error)) return <OutageNotice onRetry={account.retry} cause={account.error} />;
    return <ErrorMessage error={account.error} onRetry={account.retry} />;
  }
  return (
    <>
      <Membership account={account.data} />
      <Vods account={account.data} />
      <EmailSection email={account.data.email} />
      <ReleaseMailSection on={account.data.releaseMail} />
    </>
  );
}

/** /account: the member's membership, VODs, cancelling, password and sessions. Visitors sign in first. */
export function AccountPage() {
  const access = useAccess();
  // No answer from the bff is not "signed out": only its 401 sends a member to the sign-in form.
  if (access.status === 'unknown' && access.unreachable) {
    return (
      <section>
        <h1>Your account</h1>
        <OutageNotice />
      </section>
    );
  }
  if (access.status === 'unknown') return <Loading />;
  if (access.status === 'visitor') return <Navigate to={signInHref('/account')} replace />;
  return (
    <section>
      <h1>Your account</h1>
      <p className="muted">Signed in as {access.member.username}.</p>
      {access.unreachable ? (
        <OutageNotice />
      ) : (
        <>
          <AccountDetails username={access.member.username} />
          <PasswordForm />
          <SignOutEverywhere />
        </>
      )}
    </section>
  );
}
