import { useState } from 'react';
import { ErrorText } from './ErrorText';
import { addPasskey } from './passkeys';
import { useAdminCall } from './useAdminCall';

/** Registers a passkey for the signed-in admin (the API allows it only from a console session). */
export function AddPasskey({ onSignedOut }: { onSignedOut: () => void }) {
  const [added, setAdded] = useState(false);
  const { error, busy, run } = useAdminCall(onSignedOut);

  async function add() {
    setAdded(false);
    if ((await run(async () => (await addPasskey(), true))) === true) setAdded(true);
  }

  return (
    <div className="admin-passkey">
      <button type="button" className="admin-secondary" onClick={() => void add()} disabled={busy}>
        Add a passkey
      </button>
      {added && (
        <span role="status" className="admin-notice">
          Passkey added: sign in with it next time.
        </span>
      )}
      <ErrorText message={error} />
    </div>
  );
}
