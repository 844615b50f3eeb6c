import { useCallback, useState } from 'react';
import { AdminApiError } from './api';
import { askConfirmation } from './confirmation';

const needsConfirmation = (err: unknown) => err instanceof AdminApiError && err.code === 'confirm_required';

/** The call, and once more after the admin confirmed it is them, if the API asked for that. */
async function confirmedIfAsked<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!needsConfirmation(err)) throw err;
    if (!(await askConfirmation())) throw new AdminApiError(403, 'Nothing was changed: the change needs you to confirm it is you.');
    return call();
  }
}

/**
 * Runs an API call for a screen: a change the API wants confirmed asks the admin first (a fresh
 * code or passkey) and is sent again; with `onSignedOut`, a 401 sends the console back to sign-in;
 * any other failure (and a 401 without it: a refused sign-in) is the API's text.
 */
export function useAdminCall(onSignedOut?: () => void) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async <T>(call: () => Promise<T>): Promise<T | undefined> => {
      setBusy(true);
      setError('');
      try {
        return await confirmedIfAsked(call);
      } catch (err) {
        if (onSignedOut && err instanceof AdminApiError && err.status === 401) onSignedOut();
        else setError(err instanceof Error ? err.message : String(err));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [onSignedOut],
  );
  return { error, busy, run };
}
