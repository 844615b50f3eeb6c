import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { adminApi, when, type IngestRun } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Table } from '../shared/Table';
import { useAdminCall } from '../shared/useAdminCall';
import { Outcome, Progress } from './IngestReport';

/** How often a run in progress is read again. */
const POLL_MS = 1000;

const STATUS: Record<IngestRun['status'], string> = {
  queued: 'waiting for the ingest worker',
  running: 'running',
  done: 'done',
  failed: 'failed',
};

const active = (run: IngestRun) => run.status === 'queued' || run.status === 'running';

/** Ingest a folder already under the ingest folder: pick it, start, watch the progress, read the report. */
export function Ingest({ onSignedOut }: { onSignedOut: () => void }) {
  const [folders, setFolders] = useState<string[] | undefined>(undefined);
  const [runs, setRuns] = useState<IngestRun[]>([]);
  const [folder, setFolder] = useState('');
  const [watched, setWatched] = useState<IngestRun | null>(null);
  const { error, busy, run } = useAdminCall(onSignedOut);
  const id = useId();

  const load = useCallback(async () => {
    const answer = await run(() => adminApi.ingests());
    if (!answer) return;
    setFolders(answer.folders);
    setRuns(answer.runs);
    setFolder((f) => f || answer.folders[0] || '');
    setWatched((w) => w ?? answer.runs.find(active) ?? null);
  }, [run]);

  useEffect(() => {
    void load();
  }, [load]);

  // While the watched run is queued or running, read it again every second.
  useEffect(() => {
    if (!watched || !active(watched)) return;
    const timer = window.setTimeout(() => {
      void adminApi.ingest(watched.id).then(
        ({ run: next }) => {
          setWatched(next);
          if (!active(next)) void load();
        },
        () => setWatched({ ...watched }),
      );
    }, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [watched, load]);

  async function start(event: FormEvent) {
    event.preventDefault();
    const answer = await run(() => adminApi.startIngest(folder));
    if (answer) setWatched(answer.run);
  }

  const running = watched !== null && active(watched);
  return (
    <section aria-busy={busy}>
      <p>
        Folders already copied to the ingest folder on the media volume, laid out as for <code>catalog ingest</code> (docs/operate.md).
      </p>
      {folders?.length === 0 && <p>The ingest folder has no folders yet: copy one in, then reload this page.</p>}
      {folders && folders.length > 0 && (
        <form className="admin-inline" onSubmit={(e) => void start(e)}>
          <label htmlFor={`${id}-folder`}>Folder</label>
          <select id={`${id}-folder`} value={folder} onChange={(e) => setFolder(e.target.value)}>
            {folders.map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
          <button type="submit" disabled={busy || running || !folder}>
            Start ingest
          </button>
        </form>
      )}
      <ErrorText message={error} />
      {watched && active(watched) && <Progress run={watched} />}
      {watched && !active(watched) && <Outcome run={watched} />}
      {runs.length > 0 && <RecentIngests runs={runs} watched={watched} onWatch={setWatched} />}
    </section>
  );
}

/** The latest runs; a finished one's report opens with Details. */
function RecentIngests({ runs, watched, onWatch }: { runs: IngestRun[]; watched: IngestRun | null; onWatch: (run: IngestRun) => void }) {
  return (
    <Table caption="Recent ingests, newest first" columns={['Folder', 'Asked by', 'Asked', 'State', 'Result']}>
      {runs.map((r) => (
        <tr key={r.id}>
          <td>{r.folder}</td>
          <td>{r.requestedBy}</td>
          <td>{when(r.createdAt)}</td>
          <td>{STATUS[r.status]}</td>
          <td>
            {r.report
              ? `${r.report.added} added, ${r.report.updated} updated, ${r.report.failed.length} failed`
              : r.status === 'failed'
                ? r.error
                : `${r.done} of ${r.total}`}
            {!active(r) && r.id !== watched?.id && (
              <button type="button" className="admin-secondary" onClick={() => onWatch(r)}>
                Details
              </button>
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}
