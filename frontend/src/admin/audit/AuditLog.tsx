import { useEffect, useState } from 'react';
import { adminApi, AUDIT_CSV, when, type AuditRow } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Table } from '../shared/Table';
import { useAdminCall } from '../shared/useAdminCall';

const change = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

/** The append-only audit log, newest first, a page at a time, and the whole log as CSV. */
export function AuditLog({ onSignedOut }: { onSignedOut: () => void }) {
  const [pages, setPages] = useState<(number | undefined)[]>([undefined]);
  const [rows, setRows] = useState<AuditRow[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const { error, busy, run } = useAdminCall(onSignedOut);
  const before = pages[pages.length - 1];

  useEffect(() => {
    void run(() => adminApi.audit(before)).then((page) => {
      if (!page) return;
      setRows(page.entries);
      setNext(page.next);
    });
  }, [before, run]);

  return (
    <section aria-busy={busy}>
      <p>
        <a href={AUDIT_CSV} download>
          Export CSV
        </a>
      </p>
      <ErrorText message={error} />
      <Table caption={`Page ${pages.length}, newest first`} columns={['When', 'Who', 'Action', 'Target', 'Before', 'After', 'From']}>
        {rows.map((row) => (
          <tr key={row.id}>
            <td>{when(row.at)}</td>
            <td>{row.actor}</td>
            <td>{row.action}</td>
            <td>{row.target}</td>
            <td className="admin-json">{change(row.before)}</td>
            <td className="admin-json">{change(row.after)}</td>
            <td>{row.address}</td>
          </tr>
        ))}
      </Table>
      <div className="admin-pager">
        <button type="button" disabled={pages.length === 1 || busy} onClick={() => setPages(pages.slice(0, -1))}>
          Newer
        </button>
        <button type="button" disabled={next === null || busy} onClick={() => next !== null && setPages([...pages, next])}>
          Older
        </button>
      </div>
    </section>
  );
}
