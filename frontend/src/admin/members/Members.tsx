import { useId, useState, type FormEvent } from 'react';
import { adminApi, type MemberRow } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Notice } from '../shared/Notice';
import { useAdminCall } from '../shared/useAdminCall';
import { MemberDetail } from './MemberDetail';
import { MemberResults } from './MemberResults';

/**
 * Find a member by part of the username or e-mail, or a payment reference (attempt, subscription or
 * transaction id); open one (MemberDetail), disable one after saying why (and confirming).
 */
export function Members({ onSignedOut }: { onSignedOut: () => void }) {
  const [q, setQ] = useState('');
  const [found, setFound] = useState<MemberRow[] | undefined>(undefined);
  const [notice, setNotice] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const { error, busy, run } = useAdminCall(onSignedOut);
  const id = useId();

  async function search(event?: FormEvent) {
    event?.preventDefault();
    const answer = await run(() => adminApi.members(q.trim()));
    if (answer) setFound(answer.members);
  }

  async function disable(username: string, reason: string) {
    const done = await run(() => adminApi.disable(username, reason));
    if (!done) return false;
    setNotice(`${done.username} is disabled; ${done.sessionsEnded} session(s) ended.`);
    void search();
    return true;
  }

  async function act(call: () => Promise<string>) {
    const done = await run(call);
    if (done === undefined) return;
    setNotice(done);
    await search();
  }
  const enable = (username: string) => act(async () => (await adminApi.enable(username), `${username} is enabled again.`));
  const endSessions = (username: string) =>
    act(async () => `${username}: ${(await adminApi.endSessions(username)).sessionsEnded} session(s) ended.`);

  if (open !== null) return <MemberDetail username={open} onBack={() => setOpen(null)} onSignedOut={onSignedOut} />;

  return (
    <section aria-busy={busy}>
      <form role="search" className="admin-inline" onSubmit={(e) => void search(e)}>
        <label htmlFor={`${id}-q`}>Name, e-mail or payment reference</label>
        <input id={`${id}-q`} type="search" required maxLength={100} value={q} onChange={(e) => setQ(e.target.value)} />
        <button type="submit" disabled={busy}>
          Find
        </button>
      </form>
      <ErrorText message={error} />
      <Notice text={notice} />
      {found?.length === 0 && <p>No member matches.</p>}
      {found && found.length > 0 && (
        <MemberResults
          found={found}
          busy={busy}
          onOpen={setOpen}
          onDisable={disable}
          onEnable={(username) => void enable(username)}
          onEndSessions={(username) => void endSessions(username)}
        />
      )}
    </section>
  );
}
