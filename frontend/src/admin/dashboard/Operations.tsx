import { when, type DashboardData } from '../shared/api';
import { Table } from '../shared/Table';
import { ago } from './Figures';
import { MaintenanceSwitch } from './MaintenanceSwitch';

/** The last good backup's age: late when none is newer than a day (docs/operate.md, "Back up and restore"). */
function Backups({ backup, now }: { backup: NonNullable<DashboardData['backup']>; now: number }) {
  const { lastOk, lastFailed, late } = backup;
  return (
    <section aria-labelledby="dash-backup">
      <h2 id="dash-backup">Backups</h2>
      <p>
        {lastOk ? (
          <>
            Last good backup {ago(lastOk.finishedAt, now)} ago ({when(lastOk.finishedAt)}): set {lastOk.setId}, {lastOk.files} media files,{' '}
            {(lastOk.bytes / 1024 / 1024).toFixed(1)} MiB.
          </>
        ) : (
          'No backup has been made yet.'
        )}{' '}
        {late && <strong className="admin-late">Late: no good backup in the last day.</strong>}
      </p>
      {lastFailed && (
        <p>
          <strong className="admin-late">The last run failed</strong> {ago(lastFailed.finishedAt, now)} ago: {lastFailed.error}
        </p>
      )}
      <p className="admin-hint">
        Compose&apos;s <code>backup</code> service writes a set at each <code>BACKUP_SCHEDULE</code> time; <code>ops backup</code> writes
        one by hand, <code>ops restore-backup</code> puts one back.
      </p>
    </section>
  );
}

/** The media services' lists by age, and the failures the database records. */
export function Operations({ data }: { data: DashboardData }) {
  const errors = data.errors ?? [];
  const lists = data.mediaLists ?? [];
  return (
    <>
      <MaintenanceSwitch />
      {data.backup && <Backups backup={data.backup} now={data.now} />}
      <section aria-labelledby="dash-lists">
        <h2 id="dash-lists">Media services&apos; lists</h2>
        <p className="admin-hint">
          When each media service last fetched its revocation and takedown lists from the site. One past its bound keeps serving what those
          lists would refuse (it also reports itself unready on <code>/readyz</code>): look at that service.
        </p>
        {lists.length === 0 ? (
          <p>No media service has fetched a list yet.</p>
        ) : (
          <Table caption="The stalest first" columns={['Media service', 'List', 'Fetched', 'Bound', 'State']}>
            {lists.map((l) => (
              <tr key={`${l.instance}-${l.list}`}>
                <td>{l.instance}</td>
                <td>{l.list}</td>
                <td>{l.ageSeconds < 120 ? `${l.ageSeconds} s` : ago(l.fetchedAt, data.now)} ago</td>
                <td>{l.maxAgeSeconds === null ? 'not said' : `${l.maxAgeSeconds} s`}</td>
                <td>{l.late ? <strong className="admin-late">Late: past its bound</strong> : 'Current'}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>
      <section aria-labelledby="dash-errors">
        <h2 id="dash-errors">Recent errors</h2>
        <p className="admin-hint">
          The failures the database records: encodes that failed, mail given up on, and purges still retrying. Application logs are not kept
          in the database; read them with <code>docker compose logs</code>.
        </p>
        {errors.length === 0 ? (
          <p>No errors recorded.</p>
        ) : (
          <Table caption={`The ${errors.length} newest, newest first`} columns={['When', 'Kind', 'What', 'Error']}>
            {errors.map((e, i) => (
              <tr key={`${e.source}-${e.at}-${i}`}>
                <td>{when(e.at)}</td>
                <td>{e.source}</td>
                <td>{e.subject}</td>
                <td>{e.text}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>
    </>
  );
}
