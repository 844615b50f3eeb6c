import { useCallback, useEffect, useId, useState } from 'react';
import { adminApi, when } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Notice } from '../shared/Notice';
import { useAdminCall } from '../shared/useAdminCall';
import { MemberActions } from './MemberActions';
import { memberApi, type AttemptRow, type MemberDetail as Detail, type ReconcileAction } from './member-api';
import './member-detail.css';
import { MemberFacts } from './MemberFacts';
import { MemberHistory } from './MemberHistory';
import { PaymentAttempts } from './PaymentAttempts';

/** One member (or a username only a sign-up payment holds): membership, VODs, sessions, payments; extend and reconcile. */
export function MemberDetail({ username, onBack, onSignedOut }: { username: string; onBack: () => void; onSignedOut: () => void }) {
  const [detail, setDetail] = useState<Detail | undefined>(undefined);
  const [notice, setNotice] = useState('');
  const { error, busy, run } = useAdminCall(onSignedOut);
  const id = useId();

  const load = useCallback(async () => {
    const answer = await run(() => memberApi.detail(username));
    if (answer) setDetail(answer);
  }, [run, username]);

  useEffect(() => {
    void load();
  }, [load]);

  async function extend(days: number, reason: string) {
    const done = await run(() => memberApi.extend(username, days, reason));
    if (!done) return false;
    setNotice(`${username}'s membership now runs until ${when(done.paidUntil)} (was ${when(done.before)}).`);
    void load();
    return true;
  }

  async function reconcile(attempt: AttemptRow, action: ReconcileAction, subscriptionId: string | undefined) {
    const done = await run(() => memberApi.reconcile(attempt.id, action, subscriptionId));
    if (!done) {
      // Settled meanwhile (a webhook, the CLI)? Show its state now; the error above stays.
      memberApi.detail(username).then(setDetail, () => undefined);
      return false;
    }
    setNotice(`Attempt ${attempt.id} is now ${done.after} (was ${done.before}).`);
    void load();
    return true;
  }

  async function resendReceipt(attempt: AttemptRow) {
    const done = await run(() => memberApi.resendReceipt(attempt.id));
    if (done) setNotice(done.message);
  }

  async function cancelRenewal() {
    const done = await run(() => memberApi.cancelRenewal(username));
    if (!done) return false;
    setNotice(done.message);
    void load();
    return true;
  }

  async function endSessions() {
    const done = await run(() => adminApi.endSessions(username));
    if (!done) return;
    setNotice(`${username}: ${done.sessionsEnded} session(s) ended; links and tokens they were given stop working too.`);
    await load();
  }

  return (
    <section aria-busy={busy} aria-labelledby={`${id}-title`} className="admin-detail">
      <p>
        <button type="button" className="admin-secondary" onClick={onBack}>
          ← Back to the results
        </button>
      </p>
      <h2 id={`${id}-title`}>{username}</h2>
      <ErrorText message={error} />
      <Notice text={notice} />
      {detail && (
        <>
          <MemberFacts detail={detail} />
          {detail.account && (
            <MemberActions
              username={username}
              busy={busy}
              renews={detail.membership.state === 'active' && detail.membership.subscriptions.some((s) => s.status === 'active')}
              onExtend={extend}
              onCancelRenewal={cancelRenewal}
              onEndSessions={() => void endSessions()}
            />
          )}
          {detail.attempts.length > 0 && (
            <PaymentAttempts attempts={detail.attempts} busy={busy} onReconcile={reconcile} onResend={(a) => void resendReceipt(a)} />
          )}
          {detail.attempts.length === 0 && <p>No payment attempts.</p>}
          <MemberHistory detail={detail} />
        </>
      )}
    </section>
  );
}
