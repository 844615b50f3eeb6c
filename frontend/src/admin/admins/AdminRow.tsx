import { useId, useState } from 'react';
import { adminApi, when, type AdminListRow, type AdminRole, type Enrolment } from '../shared/api';
import { ConfirmChange, type Risky } from './ConfirmChange';
import { ADMIN_ROLES } from './roles';

export type Ask = Risky | 'email';
type Act = (call: () => Promise<string>) => Promise<void>;

export interface RowProps {
  busy: boolean;
  /** What this row asks before a change (one row at a time), or null. */
  asking: Ask | null;
  onAsk: (what: Ask | null) => void;
  act: Act;
  /** A new TOTP secret, to show once. */
  onEnrolment: (enrolment: Enrolment) => void;
}

/** One admin: who, their role and state, and the changes an owner may make to them. */
export function AdminRow({ a, me, ...props }: { a: AdminListRow; me: string } & RowProps) {
  const { asking } = props;
  // The role picked in the menu, kept while a confirmation for this admin is open.
  const [picked, setPicked] = useState<AdminRole | null>(null);
  return (
    <tr>
      <td>
        {a.name}
        {a.name === me && ' (you)'}
      </td>
      <td>{a.role}</td>
      <td>{a.disabledAt === null ? 'active' : `disabled ${when(a.disabledAt)}`}</td>
      <td>{a.passkeys}</td>
      <td>{a.email ?? '—'}</td>
      <td>{when(a.createdAt)}</td>
      <td>
        {asking === null && <AdminChanges a={a} chosen={picked ?? a.role} onPick={setPicked} {...props} />}
        {asking === 'email' && <EmailForm a={a} {...props} />}
        {asking !== null && asking !== 'email' && <ConfirmChange a={a} what={asking} {...props} />}
      </td>
    </tr>
  );
}

function AdminChanges({
  a,
  chosen,
  onPick,
  busy,
  onAsk,
  act,
}: { a: AdminListRow; chosen: AdminRole; onPick: (role: AdminRole) => void } & RowProps) {
  const id = useId();
  const enable = async () => {
    await adminApi.enableAdmin(a.name);
    return `${a.name} may sign in again, with the passkeys and TOTP secret they had.`;
  };
  const changeRole = async () => {
    const changed = await adminApi.adminRole(a.name, chosen);
    return `${a.name} is now ${changed.after} (was ${changed.before}).`;
  };
  if (a.disabledAt !== null)
    return (
      <button type="button" className="admin-secondary" disabled={busy} onClick={() => void act(enable)}>
        Enable {a.name}
      </button>
    );
  return (
    <span className="admin-inline">
      <label htmlFor={`${id}-role`} className="admin-visually-hidden">
        New role for {a.name}
      </label>
      <select id={`${id}-role`} value={chosen} onChange={(e) => onPick(e.target.value as AdminRole)}>
        {ADMIN_ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <button type="button" className="admin-secondary" disabled={busy || chosen === a.role} onClick={() => void act(changeRole)}>
        Change role of {a.name}
      </button>
      <button type="button" className="admin-secondary" onClick={() => onAsk('totp')}>
        New TOTP secret…
      </button>
      {a.passkeys > 0 && (
        <button type="button" className="admin-secondary" onClick={() => onAsk('passkeys')}>
          Revoke passkeys…
        </button>
      )}
      <button type="button" className="admin-secondary" onClick={() => onAsk('email')}>
        E-mail…
      </button>
      <button type="button" className="admin-secondary" onClick={() => onAsk('disable')}>
        Disable…
      </button>
    </span>
  );
}

function EmailForm({ a, busy, onAsk, act }: { a: AdminListRow } & RowProps) {
  const [email, setEmail] = useState(a.email ?? '');
  const id = useId();
  const save = async () => {
    const done = await adminApi.adminEmail(a.name, email.trim());
    return done.email ? `${a.name}'s notices go to ${done.email}.` : `${a.name} gets no notices by mail.`;
  };
  return (
    <form
      className="admin-confirm"
      aria-label={`E-mail for ${a.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void act(save);
      }}
    >
      <label htmlFor={`${id}-email`}>Notices to (empty for none)</label>
      <input id={`${id}-email`} type="email" maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
      <button type="submit" disabled={busy}>
        Save e-mail of {a.name}
      </button>
      <button type="button" className="admin-secondary" onClick={() => onAsk(null)}>
        Cancel
      </button>
    </form>
  );
}
