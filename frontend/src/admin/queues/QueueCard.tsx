import type { QueueView } from '@media-site/contracts/admin-queues';
import { QUEUE_TITLES } from '@media-site/contracts/queue-names';
import { ago, Figures } from '../dashboard/Figures';
import { when } from '../shared/api';
import { FailedJobs, RunningJobs, WaitingJobs, type QueueAction } from './JobTables';

export type { QueueAction };

interface CardProps {
  view: QueueView;
  now: number;
  busy: boolean;
  onAct: (action: QueueAction) => void;
}

/** One queue: its counts, pause or resume, then its failed, running and waiting jobs (problems first). */
export function QueueCard({ view, now, busy, onAct }: CardProps) {
  const title = QUEUE_TITLES[view.name];
  const c = view.counts;
  const head = `queue-${view.name}`;
  const tables = { title, now, busy, onAct };
  return (
    <section aria-labelledby={head} className="admin-card admin-queue">
      <h2>
        <span id={head}>{title}</span>
        {view.paused && <span className="admin-badge admin-badge-amber">Paused</span>}
      </h2>
      {view.paused && (
        <p>
          Paused by {view.paused.by} {ago(view.paused.at, now)} ago ({when(view.paused.at)}): no new job starts until it is resumed.
        </p>
      )}
      <Figures
        items={[
          ['Running', c.running],
          ['Waiting', c.queued],
          ['Waiting to retry', c.retrying, c.retrying > 0 ? 'amber' : undefined],
          ['Failed', c.failed, c.failed > 0 ? 'red' : 'green'],
          ['Done', c.done],
        ]}
      />
      <QueueButtons view={view} title={title} busy={busy} onAct={onAct} />
      <FailedJobs jobs={view.failed} {...tables} />
      <RunningJobs jobs={view.running} {...tables} />
      <WaitingJobs jobs={view.waiting} total={c.queued + c.retrying} canCancel={view.can.cancel} {...tables} />
      {c.running + c.queued + c.retrying + c.failed === 0 && <p>Nothing waiting.</p>}
    </section>
  );
}

function QueueButtons({ view, title, busy, onAct }: Omit<CardProps, 'now'> & { title: string }) {
  const name = title.toLowerCase();
  if (!view.can.pause) return <p>Purges are never paused or cancelled: a takedown must reach the CDN. They retry on their own.</p>;
  return (
    <div className="admin-inline">
      <button
        type="button"
        className="admin-secondary"
        disabled={busy}
        onClick={() => onAct({ verb: view.paused ? 'resume' : 'pause', what: `The ${name} queue` })}
      >
        {view.paused ? `Resume ${name}` : `Pause ${name}`}
      </button>
      {view.counts.failed > 0 && (
        <button type="button" disabled={busy} onClick={() => onAct({ verb: 'retry-failed', what: `The ${name} queue` })}>
          Retry all failed
        </button>
      )}
    </div>
  );
}
