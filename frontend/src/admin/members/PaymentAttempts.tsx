import { useId, useState, type FormEvent } from 'react';
import { when } from '../shared/api';
import { Table } from '../shared/Table';
import type { AttemptRow, ReconcileAction } from './member-api';

const ACTION_TEXT: Record<ReconcileAction, string> = {
  approve: 'Approve: the provider shows the charge',
  decline: 'Decline: the provider shows no charge',
  expire: 'Expire: no answer and no webhook came',
};

interface Settle {
  /** True once settled: the form closes. */
  onReconcile: (attempt: AttemptRow, action: ReconcileAction, subscriptionId: string | undefined) => Promise<boolean>;
  /** A copy of an approved payment's receipt to the member's current address. */
  onResend: (attempt: AttemptRow) => void;
  busy: boolean;
}

/** The member's payment attempts; a stuck one is settled by what the provider's admin shows for it. */
export function PaymentAttempts({ attempts, busy, onReconcile, onResend }: { attempts: AttemptRow[] } & Settle) {
  const [reconciling, setReconciling] = useState<number | null>(null);
  const [action, setAction] = useState<ReconcileAction>('approve');
  const [subscriptionId, setSubscriptionId] = useState('');
  const id = useId();

  async function reconcile(event: FormEvent, attempt: AttemptRow) {
    event.preventDefault();
    const sub = action === 'approve' && subscriptionId.trim() !== '' ? subscriptionId.trim() : undefined;
    if (!(await onReconcile(attempt, action, sub))) return;
    setReconciling(null);
    setSubscriptionId('');
  }

  const form = (a: AttemptRow) => (
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
  );

  return (
    <Table
      caption="Payment attempts (newest first, at most 50)"
      columns={['Attempt', 'For', 'Amount', 'Started', 'State', 'Where it stands', 'Settle']}
    >
      {attempts.map((a) => (
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
            {a.stuck && reconciling === a.id && form(a)}
            {a.status === 'approved' && (
              <button type="button" className="admin-secondary" disabled={busy} onClick={() => onResend(a)}>
                Resend receipt {a.id}
              </button>
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}
