import { Link } from 'react-router-dom';
import { screenPath } from '../screens';
import { when, type DashboardData } from '../shared/api';
import { ago, Figures } from './Figures';

/** What waits for someone: reports by deadline, the encode queue, CDN purges. */
export function Queues({ data }: { data: DashboardData }) {
  const { encode, reports, purge } = data;
  return (
    <div className="admin-cards">
      {reports && (
        <section aria-labelledby="dash-reports" className="admin-card">
          <h2 id="dash-reports">Reports</h2>
          <Figures
            items={[
              ['Open', reports.open],
              ['Due today', reports.dueToday, reports.dueToday > 0 ? 'amber' : 'green'],
              ['Overdue', reports.overdue, reports.overdue > 0 ? 'red' : 'green'],
            ]}
          />
        </section>
      )}
      {encode && (
        <section aria-labelledby="dash-encode" className="admin-card">
          <h2 id="dash-encode">Encode queue</h2>
          <Figures
            items={[
              ['Waiting', encode.queued],
              ['Running', encode.running],
              ['Failed', encode.failed, encode.failed > 0 ? 'red' : 'green'],
              ['Waiting to retry', encode.retrying, encode.retrying > 0 ? 'amber' : undefined],
            ]}
          />
          <p>
            <Link to={screenPath('queues')}>Open the queues</Link> to see why a job failed, retry it, or pause a queue.
          </p>
        </section>
      )}
      {purge && (
        <section aria-labelledby="dash-purge" className="admin-card">
          <h2 id="dash-purge">CDN purges</h2>
          {purge.oldest ? (
            <>
              <Figures items={[['Pending', purge.pending, 'amber']]} />
              <p>
                Oldest: a {purge.oldest.event} queued {when(purge.oldest.createdAt)} ({ago(purge.oldest.createdAt, data.now)} ago), tried{' '}
                {purge.oldest.attempts} time{purge.oldest.attempts === 1 ? '' : 's'}
                {purge.oldest.lastError ? `; last error: ${purge.oldest.lastError}` : ''}.
              </p>
            </>
          ) : (
            <Figures items={[['Pending', 0, 'green']]} />
          )}
        </section>
      )}
    </div>
  );
}
