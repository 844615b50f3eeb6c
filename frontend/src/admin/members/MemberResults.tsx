import { useId, useState, type FormEvent } from 'react';
import { DISABLE_REASON_MAX } from '@media-site/contracts/member-rules';
import { when, type MemberRow } from '../shared/api';
import { Table } from '../shared/Table';

interface Actions {
  busy: boolean;
  onOpen: (username: string) => void;
  /** True once disabled: the form closes. */
  onDisable: (username: string, reason: string) => Promise<boolean>;
  onEnable: (username: string) => void;
  onEndSessions: (username: string) => void;
}

/** The members found: open one, disable one after saying why, enable one, end one's sessions. */
export function MemberResults({ found, ...actions }: { found: MemberRow[] } & Actions) {
  const [confirming, setConfirming] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const id = useId();
  const { busy } = actions;

  async function disable(event: FormEvent, username: string) {
    event.preventDefault();
    if (!(await actions.onDisable(username, reason.trim()))) return;
    setConfirming(null);
    setReason('');
  }

  const disableForm = (username: string) => (
    <form className="admin-confirm" onSubmit={(e) => void disable(e, username)}>
      <label htmlFor={`${id}-reason`}>Why disable {username}?</label>
      <input
        id={`${id}-reason`}
        required
        maxLength={DISABLE_REASON_MAX}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        autoFocus
      />
      <button type="submit" className="admin-danger" disabled={busy}>
        Disable {username}
      </button>
      <button type="button" className="admin-secondary" onClick={() => setConfirming(null)}>
        Cancel
      </button>
    </form>
  );

  const state = (m: MemberRow) => {
    if (!m.account) return 'no account: a sign-up payment in doubt (open it to settle)';
    if (m.disabledAt !== null)
      return (
        <>
          {`disabled ${when(m.disabledAt)}${m.disabledReason ? `: ${m.disabledReason}` : ''} `}
          <button type="button" className="admin-secondary" disabled={busy} onClick={() => actions.onEnable(m.username)}>
            Enable {m.username}
          </button>
        </>
      );
    if (confirming === m.username) return disableForm(m.username);
    return (
      <span className="admin-inline">
        <button type="button" className="admin-secondary" onClick={() => setConfirming(m.username)}>
          Disable…
        </button>
        <button type="button" className="admin-secondary" disabled={busy} onClick={() => actions.onEndSessions(m.username)}>
          End sessions
        </button>
      </span>
    );
  };

  return (
    <Table caption={`${found.length} found (at most 50)`} columns={['Username', 'E-mail', 'Joined', 'Paid until', 'VODs', 'State']}>
      {found.map((m) => (
        <tr key={m.username}>
          <td>
            <button type="button" className="admin-link" onClick={() => actions.onOpen(m.username)}>
              {m.username}
            </button>
            {m.matched === 'reference' && <div className="admin-hint">matches the payment reference</div>}
          </td>
          <td>{m.email}</td>
          <td>{when(m.createdAt)}</td>
          <td>{when(m.paidUntil)}</td>
          <td>{m.vods}</td>
          <td>{state(m)}</td>
        </tr>
      ))}
    </Table>
  );
}
