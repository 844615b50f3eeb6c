import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { adminApi, when } from '../shared/api';
import { memberApi, type AttemptRow, type MemberDetail as Detail, type ReconcileAction } from './member-api';
import './member-detail.css';
import { ErrorText } from '../shared/ErrorText';
import { Table } from '../shared/Table';
import { useAdminCall } from '../shared/useAdminCall';

const DAYS_MAX = 366;
const REASON_MAX = 200;

const STATE_TEXT: Record<Detail['membership']['state'], string> = {
  active: 'active',
  lapsed: 'lapsed',
  none: 'never had a membership',
  withdrawn: 'withdrawn (disabled or charged back): no access until enabled',
};

const ACTION_TEXT: Record<ReconcileAction, string> = {
  approve: 'Approve: the provider shows the charge',
  decline: 'Decline: the provider shows no charge',
  expire: 'Expire: no answer and no webhook came',
};

/** One member (or a username only a sign-up payment holds): membership, VODs, sessions, payments; extend and reconcile. */
export function MemberDetail({ username, onBack, onSignedOut }: { username: string; onBack: () => void; onSignedOut: () => void }) {
  const [detail, setDetail] = useState<Detail | undefined>(undefined);
  const [days, setDays] = useState('30');
  const [reason, setReason] = useState('');
  const [reconciling, setReconciling] = useState<number | null>(null);
  const [action, setAction] = useState<ReconcileAction>('approve');
  const [subscriptionId, setSubscriptionId] = useState('');
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

  async function extend(event: FormEvent) {
    event.preventDefault();
    const done = await run(() => memberApi.extend(username, Number(days), reason.trim()));
    if (!done) return;
    setNotice(`${username}'s membership now runs until ${when(done.paidUntil)} (was ${when(done.before)}).`);
    setReason('');
    await load();
  }

  async function reconcile(event: FormEvent, attempt: AttemptRow) {
    event.preventDefault();
    const sub = action === 'approve' && subscriptionId.trim() !== '' ? subscriptionId.trim() : undefined;
    const done = await run(() => memberApi.reconcile(attempt.id, action, sub));
    if (!done) {
      // Settled meanwhile (a webhook, the CLI)? Show its state now; the error above stays.
      memberApi.detail(username).then(setDetail, () => undefined);
      return;
    }
    setNotice(`Attempt ${attempt.id} is now ${done.after} (was ${done.before}).`);
    setReconciling(null);
    setSubscriptionId('');
    await load();
  }

  async function endSessions() {
    const done = await run(() => adminApi.endSessions(username));
    if (!done) return;
    setNotice(`${username}: ${done.sessionsEnded} session(s) ended; links and tokens they were given stop working too.`);
    await load();
  }

  const m = detail?.membership;
  return (
    <section aria-busy={busy} aria-labelledby={`${id}-title`} className="admin-detail">
      <p>
        <button type="button" className="admin-secondary" onClick={onBack}>
          ← Back to the results
        </button>
      </p>
      <h2 id={`${id}-title`}>{username}</h2>
      <ErrorText message={error} />
      {notice && (
        <p role="status" className="admin-notice">
          {notice}
        </p>
      )}
      {detail && m && (
        <>
          <dl className="admin-facts">
            <dt>Account</dt>
            <dd>
              {detail.account
                ? `${detail.account.email || 'no e-mail'}, joined ${when(detail.account.createdAt)}`
                : 'none: only a sign-up payment holds this username (settle it below)'}
            </dd>
            {detail.account?.disabledAt != null && (
              <>
                <dt>Disabled</dt>
                <dd>{`${when(detail.account.disabledAt)}${detail.account.disabledReason ? `: ${detail.account.disabledReason}` : ''}`}</dd>
              </>
            )}
            {detail.account?.revokedAt != null && (
              <>
                <dt>Charged back</dt>
                <dd>{when(detail.account.revokedAt)}</dd>
              </>
            )}
            <dt>Membership</dt>
            <dd>
              {STATE_TEXT[m.state]}
              {m.paidUntil !== null && `, paid until ${when(m.paidUntil)}`}
            </dd>
            <dt>Sessions</dt>
            <dd>
              {detail.sessions.count === 0
                ? 'none open'
                : `${detail.sessions.count} open, last sign-in ${when(detail.sessions.lastSignInAt)} (where from is not recorded)`}
            </dd>
          </dl>

          {detail.account && (
            <div className="admin-actions">
              <form className="admin-confirm" onSubmit={(e) => void extend(e)}>
                <label htmlFor={`${id}-days`}>Extend the membership by (days, 1–{DAYS_MAX})</label>
                <input
                  id={`${id}-days`}
                  type="number"
                  inputMode="numeric"
                  required
                  min={1}
                  max={DAYS_MAX}
                  step={1}
                  value={days}
                  onChange={(e) => setDays(e.target.value)}
                />
                <label htmlFor={`${id}-why`}>Why?</label>
                <input id={`${id}-why`} required maxLength={REASON_MAX} value={reason} onChange={(e) => setReason(e.target.value)} />
                <button type="submit" disabled={busy}>
                  Extend
                </button>
              </form>
              <button type="button" className="admin-secondary" disabled={busy} onClick={() => void endSessions()}>
                End {username}'s sessions
              </button>
            </div>
          )}

          {detail.attempts.length > 0 && (
            <Table
              caption="Payment attempts (newest first, at most 50)"
              columns={['Attempt', 'For', 'Amount', 'Started', 'State', 'Where it stands', 'Settle']}
            >
              {detail.attempts.map((a) => (
                <tr key={a.id}>
                  <td>{a.id}</td>
                  <td>{a.kind === 'vod' ? `VOD ${a.vod ?? ''}` : 'membership'}</td>
                  <td>{a.amount}</td>
                  <td>{when(a.createdAt)}</td>
                  <td>{a.status}</td>
                  <td>
                    {a.step}
                    {a.providerSubscriptionId && <div>subscription {a.providerSubscriptionId}</div>}
                  </td>
                  <td>
                    {a.stuck && reconciling !== a.id && (
                      <button type="button" className="admin-secondary" onClick={() => setReconciling(a.id)}>
                        Reconcile {a.id}…
                      </button>
                    )}
                    {a.stuck && reconciling === a.id && (
                      <form className="admin-confirm" onSubmit={(e) => void reconcile(e, a)}>
                        <fieldset>
                          <legend>What does the provider's admin show for attempt {a.id}?</legend>
                          {(Object.keys(ACTION_TEXT) as ReconcileAction[]).map((k) => (
                            <label key={k}>
                              <input type="radio" name={`${id}-action`} value={k} checked={action === k} onChange={() => setAction(k)} />
                              {ACTION_TEXT[k]}
                            </label>
                          ))}
                        </fieldset>
                        {action === 'approve' && (
                          <>
                            <label htmlFor={`${id}-sub`}>Subscription id (optional, digits)</label>
                            <input
                              id={`${id}-sub`}
                              inputMode="numeric"
                              maxLength={32}
                              value={subscriptionId}
                              onChange={(e) => setSubscriptionId(e.target.value)}
                            />
                          </>
                        )}
                        <button type="submit" className="admin-danger" disabled={busy}>
                          Settle attempt {a.id}
                        </button>
                        <button type="button" className="admin-secondary" onClick={() => setReconciling(null)}>
                          Cancel
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </Table>
          )}
          {detail.attempts.length === 0 && <p>No payment attempts.</p>}

          {m.subscriptions.length > 0 && (
            <Table caption="Membership subscriptions" columns={['Status', 'Paid until', 'Provider subscription', 'Since']}>
              {m.subscriptions.map((s) => (
                <tr key={s.id}>
                  <td>{s.status}</td>
                  <td>{when(s.paidUntil)}</td>
                  <td>{s.providerSubscriptionId ?? 'none (added by an operator)'}</td>
                  <td>{when(s.createdAt)}</td>
                </tr>
              ))}
            </Table>
          )}

          {detail.vods.length === 0 && <p>No VODs bought.</p>}
          {detail.vods.length > 0 && (
            <Table caption={`VODs owned (${detail.vods.length})`} columns={['VOD', 'Status', 'Bought']}>
              {detail.vods.map((v) => (
                <tr key={`${v.path}-${v.boughtAt}`}>
                  <td>{v.title ? `${v.title} (${v.path})` : v.path}</td>
                  <td>{v.status}</td>
                  <td>{when(v.boughtAt)}</td>
                </tr>
              ))}
            </Table>
          )}

          {detail.webhooks.length === 0 && <p>No webhooks from the provider for this member's subscriptions.</p>}
          {detail.webhooks.length > 0 && (
            <Table
              caption="Provider webhooks (newest first, at most 50)"
              columns={['Event', 'Transaction', 'Subscription', 'Received', 'Outcome']}
            >
              {detail.webhooks.map((w) => (
                <tr key={w.id}>
                  <td>{w.eventType}</td>
                  <td>{w.transactionId}</td>
                  <td>{w.subscriptionId ?? '—'}</td>
                  <td>{when(w.receivedAt)}</td>
                  <td>{w.outcome ?? '—'}</td>
                </tr>
              ))}
            </Table>
          )}
        </>
      )}
    </section>
  );
}
