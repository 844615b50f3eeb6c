import { useEffect, useState } from 'react';
import { adminApi, when, type ReportRow } from './api';
import { ErrorText } from './ErrorText';
import { Table } from './Table';
import { useAdminCall } from './useAdminCall';

const stateOf = (r: ReportRow) =>
  r.appealed_at !== null && r.resolved_at !== null ? 'appealed' : r.acknowledged_at !== null ? 'acknowledged' : 'new';

/** Open reports and open appeals, oldest first (deciding them is still the CLI's: ops README). */
export function Reports({ onSignedOut }: { onSignedOut: () => void }) {
  const [reports, setReports] = useState<ReportRow[] | undefined>(undefined);
  const { error, busy, run } = useAdminCall(onSignedOut);

  useEffect(() => {
    void run(() => adminApi.reports()).then((found) => found && setReports(found.reports));
  }, [run]);

  return (
    <section aria-busy={busy}>
      <ErrorText message={error} />
      {reports?.length === 0 && <p>No open reports.</p>}
      {reports && reports.length > 0 && (
        <Table caption={`${reports.length} open, oldest first`} columns={['Reference', 'Received', 'Reason', 'Item', 'State']}>
          {reports.map((r) => (
            <tr key={r.reference}>
              <td>{r.reference}</td>
              <td>{when(r.created_at)}</td>
              <td>{r.reason}</td>
              <td>
                <a href={r.content_url} target="_blank" rel="noreferrer">
                  {r.content_url}
                </a>
              </td>
              <td>{stateOf(r)}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
