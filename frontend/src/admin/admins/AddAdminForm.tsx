import { useId, useState, type FormEvent } from 'react';
import { adminApi, type AdminRole, type Enrolment } from '../shared/api';
import { ADMIN_ROLES, ROLE_TEXT } from './roles';

/** A new admin: a name, a role and where their notices go (optional); their secret is shown once. */
export function AddAdminForm({
  busy,
  act,
  onAdded,
}: {
  busy: boolean;
  act: (call: () => Promise<string>) => Promise<void>;
  onAdded: (enrolment: Enrolment) => void;
}) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<AdminRole | ''>('');
  const [email, setEmail] = useState('');
  const id = useId();

  async function add(event: FormEvent) {
    event.preventDefault();
    if (role === '') return;
    await act(async () => {
      const added = await adminApi.addAdmin(name.trim(), role, email.trim());
      onAdded(added);
      setName('');
      setRole('');
      setEmail('');
      return `${added.name} is added as ${added.role}.`;
    });
  }

  return (
    <form className="admin-inline admin-add" onSubmit={(e) => void add(e)} aria-label="Add an admin">
      <label htmlFor={`${id}-name`}>New admin's name</label>
      <input
        id={`${id}-name`}
        required
        maxLength={32}
        pattern="[a-z][a-z0-9_]{2,31}"
        title="3-32 lower-case letters, digits or _, starting with a letter"
        autoComplete="off"
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <label htmlFor={`${id}-role`}>Role</label>
      <select id={`${id}-role`} required value={role} onChange={(e) => setRole(e.target.value as AdminRole)}>
        <option value="">Choose…</option>
        {ADMIN_ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_TEXT[r]}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-email`}>E-mail for notices (optional)</label>
      <input id={`${id}-email`} type="email" maxLength={254} autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
      <button type="submit" disabled={busy}>
        Add admin
      </button>
    </form>
  );
}
