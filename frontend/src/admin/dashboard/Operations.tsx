import { when, type DashboardData } from '../shared/api';
import { Table } from '../shared/Table';
import { ago } from './Figures';

/** The media services' lists by age, and the failures the database records. */
export function Operations({ data }: { data: DashboardData }) {
  const errors = data.errors ?? [];
  const lists = data.mediaLists ?? [];
  return (
    <>
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
