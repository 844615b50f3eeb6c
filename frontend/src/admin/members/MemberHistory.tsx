import { when } from '../shared/api';
import { Table } from '../shared/Table';
import type { MemberDetail } from './member-api';

/** The member's subscriptions, the VODs they own, and the provider's webhooks about them. */
export function MemberHistory({ detail }: { detail: MemberDetail }) {
  const { subscriptions } = detail.membership;
  return (
    <>
      {subscriptions.length > 0 && (
        <Table caption="Membership subscriptions" columns={['Status', 'Paid until', 'Provider subscription', 'Since']}>
          {subscriptions.map((s) => (
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
  );
}
