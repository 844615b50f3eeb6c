import { useCallback, useEffect, useState } from 'react';
import { adminApi, type ReportRow } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { Notice } from '../shared/Notice';
import { useAdminCall } from '../shared/useAdminCall';
import { ReportCard } from './ReportCard';

// The report desk: open reports and appeals in deadline order, each with where it stands against
// the site's promises (colour AND words), the reported item, and the next step. The same rules as
// `reports ack|resolve|appeal|decide` (one service in db/src/moderation/handling.ts).

/** Open reports and appeals, overdue first, then by the next deadline. */
export function Reports({ onSignedOut }: { onSignedOut: () => void }) {
  const [reports, setReports] = useState<ReportRow[] | undefined>(undefined);
  const [notice, setNotice] = useState('');
  const { error, busy, run } = useAdminCall(onSignedOut);

  const load = useCallback(async () => {
    const found = await run(() => adminApi.reports());
    if (found) setReports(found.reports);
  }, [run]);

  useEffect(() => {
    void load();
  }, [load]);

  const act = async (call: () => Promise<string>): Promise<boolean> => {
    setNotice('');
    const done = await run(call);
    if (done === undefined) return false;
    setNotice(done);
    await load();
    return true;
  };

  const overdue = reports?.filter((r) => r.sla.state === 'overdue').length ?? 0;
  return (
    <section aria-busy={busy}>
      <ErrorText message={error} />
      <Notice text={notice} />
      {reports?.length === 0 && <p>No open reports.</p>}
      {reports && reports.length > 0 && (
        <>
          <p>
            {reports.length} open, in deadline order{overdue > 0 ? `: ${overdue} overdue` : ''}. Deadlines count business days (UTC,
            weekends and REPORT_HOLIDAYS skipped).
          </p>
          <ol className="admin-reports" aria-label="Report queue">
            {reports.map((r) => (
              <ReportCard key={r.reference} r={r} busy={busy} act={act} />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
