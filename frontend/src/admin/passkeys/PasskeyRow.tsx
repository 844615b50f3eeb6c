import { useId, useState } from 'react';
import { adminApi, when, type PasskeyRow as Passkey } from '../shared/api';

export const NAME_MAX = 64;

type Act = (call: () => Promise<string>) => Promise<void>;

/** One of the admin's passkeys: rename it, or revoke it after saying what that does. */
export function PasskeyRow({
  p,
  busy,
  editing,
  revoking,
  onEdit,
  onRevoke,
  act,
}: {
  p: Passkey;
  busy: boolean;
  editing: boolean;
  revoking: boolean;
  onEdit: (id: number | null) => void;
  onRevoke: (id: number | null) => void;
  act: Act;
}) {
  const rename = (name: string) =>
    act(async () => {
      await adminApi.renamePasskey(p.id, name);
      return `Renamed to "${name}".`;
    });
  const revoke = async () => {
    await adminApi.revokePasskey(p.id);
    return `Passkey "${p.name}" revoked.`;
  };
  return (
    <tr>
      <td>{editing ? <Rename passkey={p} busy={busy} onDone={(name) => (name === null ? onEdit(null) : void rename(name))} /> : p.name}</td>
      <td>{when(p.createdAt)}</td>
      <td>{when(p.lastUsedAt)}</td>
      <td>
        {revoking ? (
          <span className="admin-confirm" role="group" aria-label={`Revoke ${p.name}`}>
            <span>Revoke "{p.name}"? It will no longer sign you in.</span>
            <button type="button" className="admin-danger" disabled={busy} autoFocus onClick={() => void act(revoke)}>
              Revoke {p.name}
            </button>
            <button type="button" className="admin-secondary" onClick={() => onRevoke(null)}>
              Cancel
            </button>
          </span>
        ) : (
          !editing && (
            <span className="admin-inline">
              <button type="button" className="admin-secondary" onClick={() => onEdit(p.id)}>
                Rename {p.name}
              </button>
              <button type="button" className="admin-secondary" onClick={() => onRevoke(p.id)}>
                Revoke…
              </button>
            </span>
          )
        )}
      </td>
    </tr>
  );
}

function Rename({ passkey, onDone, busy }: { passkey: Passkey; onDone: (name: string | null) => void; busy: boolean }) {
  const [name, setName] = useState(passkey.name);
  const id = useId();
  return (
    <form
      className="admin-inline"
      onSubmit={(e) => {
        e.preventDefault();
        onDone(name.trim());
      }}
    >
      <label htmlFor={id} className="admin-visually-hidden">
        New name for {passkey.name}
      </label>
      <input id={id} required maxLength={NAME_MAX} value={name} onChange={(e) => setName(e.target.value)} autoFocus />
      <button type="submit" className="admin-secondary" disabled={busy}>
        Save name
      </button>
      <button type="button" className="admin-secondary" onClick={() => onDone(null)}>
        Cancel
      </button>
    </form>
  );
}
