import { useCallback, useEffect, useState } from 'react';
import { useAdminCall } from './useAdminCall';

/**
 * A screen that shows one list and changes it: the list is read on mount; `act` runs a change,
 * shows the sentence it answers with, and reads the list again. `read` must be stable (an API
 * method, not a new closure each render). The rest is useAdminCall's (error, busy, run).
 */
export function useListScreen<T>(read: () => Promise<T>, onSignedOut: () => void) {
  const [list, setList] = useState<T | undefined>(undefined);
  const [notice, setNotice] = useState('');
  const call = useAdminCall(onSignedOut);
  const { run } = call;

  const load = useCallback(async () => {
    const found = await run(read);
    if (found !== undefined) setList(found);
  }, [run, read]);

  useEffect(() => {
    void load();
  }, [load]);

  /** `settle` runs whatever the change's outcome (closing an inline form). */
  const act = useCallback(
    async (change: () => Promise<string>, settle?: () => void) => {
      setNotice('');
      const done = await run(change);
      settle?.();
      if (done === undefined) return;
      setNotice(done);
      await load();
    },
    [run, load],
  );

  return { list, notice, act, ...call };
}
