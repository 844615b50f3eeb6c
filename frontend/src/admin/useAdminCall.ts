import { useCallback, useState } from 'react';
import { AdminApiError } from './api';

/**
 * Runs an API call for a screen: with `onSignedOut`, a 401 sends the console back to sign-in; any
 * other failure (and a 401 without it: a refused sign-in) is the API's text.
 */
export function useAdminCall(onSignedOut?: () => void) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async <T>(call: () => Promise<T>): Promise<T | undefined> => {
      setBusy(true);
      setError('');
      try {
        return await call();
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
