import { useId, useState, type FormEvent } from 'react';
import { DISABLE_REASON_MAX } from '@media-site/contracts/member-rules';
import { adminApi, when, type MemberRow } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { MemberDetail } from './MemberDetail';
import { Table } from '../shared/Table';
import { useAdminCall } from '../shared/useAdminCall';

/**
 * Find a member by part of the username or e-mail, or a payment reference (attempt, subscription or
 * transaction id); open one (MemberDetail), disable one after saying why (and confirming).
 */
export function Members({ onSignedOut }: { onSignedOut: () => void }) {
  const [q, setQ] = useState('');
  const [found, setFound] = useState<MemberRow[] | undefined>(undefined);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [notice, setNotice] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const { error, busy, run } = useAdminCall(onSignedOut);
  const id = useId();

  async function search(event?: FormEvent) {
    event?.preventDefault();
    const answer = await run(() => adminApi.members(q.trim()));
    if (answer) setFound(answer.members);
  }

  async function disable(event: FormEvent, username: string) {
    event.preventDefault();
    const done = await run(() => adminApi.disable(username, reason.trim()));
    if (!done) return;
    setNotice(`${done.username} is disabled; ${done.sessionsEnded} session(s) ended.`);
    setConfirming(null);
    setReason('');
    await search();
  }

  async function act(call: () => Promise<string>) {
    const done = await run(call);
    if (done === undefined) return;
    setNotice(done);
    await search();
  }
  const enable = (username: string) => act(async () => (await adminApi.enable(username), `${username} is enabled again.`));
  const endSessions = (username: string) =>
    act(async () => `${username}: ${(await adminApi.endSessions(username)).sessionsEnded} session(s) ended.`);

  if (open !== null) return <MemberDetail username={open} onBack={() => setOpen(null)} onSignedOut={onSignedOut} />;

  return (
    <section aria-busy={busy}>
      <form role="search" className="admin-inline" onSubmit={(e) => void search(e)}>
        <label htmlFor={`${id}-q`}>Name, e-mail or payment reference</label>
        <input id={`${id}-q`} type="search" required maxLength={100} value={q} onChange={(e) => setQ(e.target.value)} />
        <button type="submit" disabled={busy}>
          Find
        </button>
      </form>
      <ErrorText message={error} />
      {notice && (
        <p role="status" className="admin-notice">
          {notice}
        </p>
      )}
      {found?.length === 0 && <p>No member matches.</p>}
      {found && found.length > 0 && (
        <Table caption={`${found.length} found (at most 50)`} columns={['Username', 'E-mail', 'Joined', 'Paid until', 'VODs', 'State']}>
          {found.map((m) => (
            <tr key={m.username}>
              <td>
                <button type="button" className="admin-link" onClick={() => setOpen(m.username)}>
                  {m.username}
                </button>
                {m.matched === 'reference' && <div className="admin-hint">matches the payment reference</div>}
              </td>
              <td>{m.email}</td>
              <td>{when(m.createdAt)}</td>
              <td>{when(m.paidUntil)}</td>
              <td>{m.vods}</td>
              <td>
                {!m.account ? (
                  'no account: a sign-up payment in doubt (open it to settle)'
                ) : m.disabledAt !== null ? (
                  <>
                    {`disabled ${when(m.disabledAt)}${m.disabledReason ? `: ${m.disabledReason}` : ''} `}
                    <button type="button" className="admin-secondary" disabled={busy} onClick={() => void enable(m.username)}>
                      Enable {m.username}
                    </button>
                  </>
                ) : confirming === m.username ? (
                  <form className="admin-confirm" onSubmit={(e) => void disable(e, m.username)}>
                    <label htmlFor={`${id}-reason`}>Why disable {m.username}?</label>
                    <input
                      id={`${id}-reason`}
                      required
                      maxLength={DISABLE_REASON_MAX}
                      value={reason}
                      onChange={(e) => setReason(e.target.value)}
                      autoFocus
                    />
                    <button type="submit" className="admin-danger" disabled={busy}>
                      Disable {m.username}
                    </button>
                    <button type="button" className="admin-secondary" onClick={() => setConfirming(null)}>
                      Cancel
                    </button>
                  </form>
                ) : (
                  <span className="admin-inline">
                    <button type="button" className="admin-secondary" onClick={() => setConfirming(m.username)}>
                      Disable…
                    </button>
                    <button type="button" className="admin-secondary" disabled={busy} onClick={() => void endSessions(m.username)}>
                      End sessions
                    </button>
                  </span>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
