import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { adminApi, when, type IngestRun } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Table } from '../shared/Table';
import { useAdminCall } from '../shared/useAdminCall';

/** How often a run in progress is read again. */
const POLL_MS = 1000;

const STATUS: Record<IngestRun['status'], string> = {
  queued: 'waiting for the ingest worker',
  running: 'running',
  done: 'done',
  failed: 'failed',
};

const active = (run: IngestRun) => run.status === 'queued' || run.status === 'running';

function Outcome({ run }: { run: IngestRun }) {
  const r = run.report;
  if (run.status === 'failed')
    return (
      <p className="admin-error">
        The ingest of {run.folder} stopped: {run.error}
      </p>
    );
  if (!r) return null;
  return (
    <>
      <p role="status" className="admin-notice">
        {run.folder}: {r.added} added, {r.updated} updated, {r.unchanged} unchanged, {r.skipped.length} skipped, {r.failed.length} failed.
      </p>
      {r.failed.length > 0 && <Reasons title="Failed (try again once fixed)" entries={r.failed} />}
      {r.skipped.length > 0 && <Reasons title="Skipped" entries={r.skipped} />}
      {r.notes.length > 0 && (
        <ul className="admin-notes">
          {r.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </>
  );
}

function Reasons({ title, entries }: { title: string; entries: { where: string; reason: string }[] }) {
  return (
    <Table caption={title} columns={['Item', 'Reason']}>
      {entries.map((e) => (
        <tr key={`${e.where}:${e.reason}`}>
          <td>{e.where}</td>
          <td>{e.reason}</td>
        </tr>
      ))}
    </Table>
  );
}

function Progress({ run }: { run: IngestRun }) {
  const label = run.status === 'queued' ? 'Waiting for the ingest worker…' : `${run.done} of ${run.total} items`;
  return (
    <div className="admin-progress" aria-live="polite">
      <label>
        Ingesting {run.folder}: {label}
        <progress max={Math.max(run.total, 1)} value={run.status === 'queued' ? undefined : run.done} />
      </label>
      {run.lastLine && <p className="muted">Now: {run.lastLine}</p>}
      {run.status === 'queued' && (
        <p className="muted">
          If it does not start within a minute, the ingest worker is not running: see docs/operate.md, “Ingest from the console”.
        </p>
      )}
    </div>
  );
}

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
      {runs.length > 0 && (
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
                  <button type="button" className="admin-secondary" onClick={() => setWatched(r)}>
                    Details
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
