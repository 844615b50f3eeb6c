import { useCallback, useState } from 'react';
import { AdminApiError } from './api';

/** Runs an API call for a screen: a 401 sends the console back to sign-in, any other failure is text. */
export function useAdminCall(onSignedOut: () => void) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async <T>(call: () => Promise<T>): Promise<T | undefined> => {
      setBusy(true);
      setError('');
      try {
        return await call();
      } catch (err) {
        if (err instanceof AdminApiError && err.status === 401) onSignedOut();
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
