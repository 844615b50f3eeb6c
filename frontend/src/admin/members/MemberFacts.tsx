import { when } from '../shared/api';
import type { MemberDetail } from './member-api';

const STATE_TEXT: Record<MemberDetail['membership']['state'], string> = {
  active: 'active',
  lapsed: 'lapsed',
  none: 'never had a membership',
  withdrawn: 'withdrawn (disabled or charged back): no access until enabled',
};

/** The account, its membership and its sessions, as facts. */
export function MemberFacts({ detail }: { detail: MemberDetail }) {
  const m = detail.membership;
  return (
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
  );
}
