import { useEffect, useId, useState, type FormEvent } from 'react';
import { MAINTENANCE_MESSAGE_MAX, MAINTENANCE_TEXT, type SiteStatus } from '@media-site/contracts/site-status';
import { adminApi, when } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Notice } from '../shared/Notice';
import { useAdminCall } from '../shared/useAdminCall';

/** The owner's maintenance switch: what members see, and on or off (the same as `ops maintenance`). */
export function MaintenanceSwitch() {
  const [state, setState] = useState<SiteStatus['maintenance'] | undefined>(undefined);
  const [message, setMessage] = useState('');
  const [notice, setNotice] = useState('');
  const { error, busy, run } = useAdminCall();
  const id = useId();

  useEffect(() => {
    void adminApi.site().then(
      (status) => setState(status.maintenance),
      () => setState(null),
    );
  }, []);

  async function turn(on: boolean, event?: FormEvent) {
    event?.preventDefault();
    setNotice('');
    const answer = await run(() => adminApi.maintenance(on, on ? message : undefined));
    if (!answer) return;
    setState(answer.maintenance);
    setNotice(on ? 'Maintenance mode is on: every page shows the banner within a couple of seconds.' : 'Maintenance mode is off.');
  }

  return (
    <section aria-labelledby="dash-maintenance" aria-busy={busy}>
      <h2 id="dash-maintenance">Maintenance mode</h2>
      <p className="admin-hint">
        For a restore or a risky migration: joining, buying and account changes are paused with a banner on every page; members keep
        browsing, watching and downloading, and the console works as usual.
      </p>
      {state ? (
        <>
          <p>
            <strong className="admin-late">On</strong> since {when(state.since)}. Members see: “{MAINTENANCE_TEXT}
            {state.message ? ` ${state.message}` : ''}”
          </p>
          <button type="button" disabled={busy} onClick={() => void turn(false)}>
            Turn maintenance off
          </button>
        </>
      ) : (
        state === null && (
          <form className="admin-inline" onSubmit={(e) => void turn(true, e)}>
            <label htmlFor={`${id}-message`}>Message for members (optional)</label>
            <input
              id={`${id}-message`}
              value={message}
              maxLength={MAINTENANCE_MESSAGE_MAX}
              placeholder="Back by 14:00 UTC."
              onChange={(e) => setMessage(e.target.value)}
            />
            <button type="submit" disabled={busy}>
              Turn maintenance on
            </button>
          </form>
        )
      )}
      <Notice text={notice} />
      <ErrorText message={error} />
    </section>
  );
}
