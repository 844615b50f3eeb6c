import type { IngestRun } from '../shared/api';
import { Table } from '../shared/Table';

/** A finished run: what it added, updated and left, and why for each item skipped or failed; or why it stopped. */
export function Outcome({ run }: { run: IngestRun }) {
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

/** A run under way: how many items of how many, and the line it is on. */
export function Progress({ run }: { run: IngestRun }) {
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
