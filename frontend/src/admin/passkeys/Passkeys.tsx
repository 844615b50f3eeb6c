import { useId, useState, type FormEvent } from 'react';
import { adminApi, type PasskeyRow as Passkey } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Notice } from '../shared/Notice';
import { Table } from '../shared/Table';
import { useListScreen } from '../shared/useListScreen';
import { addPasskey } from '../shared/webauthn';
import { NAME_MAX, PasskeyRow } from './PasskeyRow';

// The signed-in admin's own passkeys: add one (after confirming it is them), name them, revoke one.
// The same services as `admin passkeys|revoke-passkeys`; an owner revokes another admin's on Admins.

export function Passkeys({ onSignedOut }: { onSignedOut: () => void }) {
  const [newName, setNewName] = useState('');
  const [editing, setEditing] = useState<number | null>(null);
  const [revoking, setRevoking] = useState<number | null>(null);
  const { list, notice, error, busy, act: change } = useListScreen(adminApi.passkeys, onSignedOut);
  const passkeys: Passkey[] | undefined = list?.passkeys;
  const id = useId();

  const act = (call: () => Promise<string>) =>
    change(call, () => {
      setEditing(null);
      setRevoking(null);
    });

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
      <Notice text={notice} />
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
            <PasskeyRow
              key={p.id}
              p={p}
              busy={busy}
              editing={editing === p.id}
              revoking={revoking === p.id}
              onEdit={setEditing}
              onRevoke={setRevoking}
              act={act}
            />
          ))}
        </Table>
      )}
    </section>
  );
}
