import { useCallback, useEffect, useState } from 'react';
import type { QueueName, QueueView } from '@media-site/contracts/admin-queues';
import { queueApi } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Notice } from '../shared/Notice';
import { useAdminCall } from '../shared/useAdminCall';
import { QueueCard, type QueueAction } from './QueueCard';

/** How often the screen reads the queues again while it is shown. */
const POLL_MS = 3000;

const DONE: Record<QueueAction['verb'], (changed: number, what: string) => string> = {
  pause: (n, what) => (n ? `${what} is paused: its workers take no new job.` : `${what} was already paused.`),
  resume: (n, what) => (n ? `${what} is running again.` : `${what} was already running.`),
  'retry-failed': (n, what) => `${what}: ${n} failed job${n === 1 ? '' : 's'} queued again.`,
  retry: (_n, what) => `${what} is queued again.`,
  cancel: (_n, what) => `${what} is cancelled; Retry queues it again.`,
};

/** The encode, ingest, mail and purge queues: what runs, waits and failed, and the verbs on them. */
export function Queues({ onSignedOut }: { onSignedOut: () => void }) {
  const [page, setPage] = useState<{ now: number; queues: QueueView[] } | undefined>(undefined);
  const [notice, setNotice] = useState('');
  const { error, busy, run } = useAdminCall(onSignedOut);

  const load = useCallback(async () => {
    const answer = await run(() => queueApi.list());
    if (answer) setPage(answer);
  }, [run]);

  useEffect(() => {
    void load();
  }, [load]);

  // Read again every few seconds while the tab is shown (progress, new failures); a failed read
  // keeps the last page and says so through the error line.
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible')
        void queueApi.list().then(
          (answer) => setPage(answer),
          () => undefined,
        );
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, []);

  async function act(queue: QueueName, action: QueueAction) {
    setNotice('');
    const answer = await run(() => queueApi.act(queue, action));
    if (!answer) return;
    setNotice(DONE[action.verb](answer.changed, action.what));
    await load();
  }

  return (
    <section aria-busy={busy} className="admin-queues">
      <p>
        Background work: encoding, console ingests, mail and CDN purges. A paused queue takes no new job; running jobs finish. The same from
        the command line: <code>ops queues</code>, <code>ops queue retry|cancel|pause|resume</code>.
      </p>
      <Notice text={notice} />
      <ErrorText message={error} />
      {page?.queues.map((view) => (
        <QueueCard key={view.name} view={view} now={page.now} busy={busy} onAct={(action) => void act(view.name, action)} />
      ))}
    </section>
  );
}
