import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { adminApi, when, type PasskeyRow } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { addPasskey } from '../shared/webauthn';
import { Table } from '../shared/Table';
import { useAdminCall } from '../shared/useAdminCall';

// The signed-in admin's own passkeys: add one (after confirming it is them), name them, revoke one.
// The same services as `admin passkeys|revoke-passkeys`; an owner revokes another admin's on Admins.

const NAME_MAX = 64;

function Rename({ passkey, onDone, busy }: { passkey: PasskeyRow; onDone: (name: string | null) => void; busy: boolean }) {
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

export function Passkeys({ onSignedOut }: { onSignedOut: () => void }) {
  const [passkeys, setPasskeys] = useState<PasskeyRow[] | undefined>(undefined);
  const [notice, setNotice] = useState('');
  const [newName, setNewName] = useState('');
  const [editing, setEditing] = useState<number | null>(null);
  const [revoking, setRevoking] = useState<number | null>(null);
  const { error, busy, run } = useAdminCall(onSignedOut);
  const id = useId();

  const load = useCallback(async () => {
    const found = await run(() => adminApi.passkeys());
    if (found) setPasskeys(found.passkeys);
  }, [run]);

  useEffect(() => {
    void load();
  }, [load]);

  async function act(call: () => Promise<string>) {
    setNotice('');
    const done = await run(call);
    setEditing(null);
    setRevoking(null);
    if (done === undefined) return;
    setNotice(done);
    await load();
  }

  function add(event: FormEvent) {
    event.preventDefault();
    void act(async () => {
      const added = await addPasskey(newName.trim() || `Passkey added ${new Date().toISOString().slice(0, 10)}`);
      setNewName('');
      return `Passkey "${added.name}" added: sign in with it next time.`;
    });
  }

  return (
    <section aria-busy={busy}>
      <p>
        A passkey signs you in with your device's screen lock or security key, and cannot be phished. Adding or revoking one asks you to
        confirm it is you first.
      </p>
      <ErrorText message={error} />
      {notice && (
        <p role="status" className="admin-notice">
          {notice}
        </p>
      )}
      <form className="admin-inline admin-add" onSubmit={add} aria-label="Add a passkey">
        <label htmlFor={`${id}-name`}>Name for a new passkey (optional)</label>
        <input
          id={`${id}-name`}
          maxLength={NAME_MAX}
          placeholder="Work laptop"
          autoComplete="off"
          value={newName}
          onChange={(e) => setNewName(e.target.value)}
        />
        <button type="submit" disabled={busy}>
          Add a passkey
        </button>
      </form>
      {passkeys && passkeys.length === 0 && <p>You have no passkey yet: you sign in with a code from your authenticator app.</p>}
      {passkeys && passkeys.length > 0 && (
        <Table caption={`${passkeys.length} passkey(s)`} columns={['Name', 'Added', 'Last used', 'Change']}>
          {passkeys.map((p) => (
            <tr key={p.id}>
              <td>
                {editing === p.id ? (
                  <Rename
                    passkey={p}
                    busy={busy}
                    onDone={(name) =>
                      name === null
                        ? setEditing(null)
                        : void act(async () => {
                            await adminApi.renamePasskey(p.id, name);
                            return `Renamed to "${name}".`;
                          })
                    }
                  />
                ) : (
                  p.name
                )}
              </td>
              <td>{when(p.createdAt)}</td>
              <td>{when(p.lastUsedAt)}</td>
              <td>
                {revoking === p.id ? (
                  <span className="admin-confirm" role="group" aria-label={`Revoke ${p.name}`}>
                    <span>Revoke "{p.name}"? It will no longer sign you in.</span>
                    <button
                      type="button"
                      className="admin-danger"
                      disabled={busy}
                      autoFocus
                      onClick={() =>
                        void act(async () => {
                          await adminApi.revokePasskey(p.id);
                          return `Passkey "${p.name}" revoked.`;
                        })
                      }
                    >
                      Revoke {p.name}
                    </button>
                    <button type="button" className="admin-secondary" onClick={() => setRevoking(null)}>
                      Cancel
                    </button>
                  </span>
                ) : (
                  editing !== p.id && (
                    <span className="admin-inline">
                      <button type="button" className="admin-secondary" onClick={() => setEditing(p.id)}>
                        Rename {p.name}
                      </button>
                      <button type="button" className="admin-secondary" onClick={() => setRevoking(p.id)}>
                        Revoke…
                      </button>
                    </span>
                  )
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
