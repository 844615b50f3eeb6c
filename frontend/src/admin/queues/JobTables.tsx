import { useState } from 'react';
import type { QueueJob } from '@media-site/contracts/admin-queues';
import { ago } from '../dashboard/Figures';
import { when } from '../shared/api';
import { Table } from '../shared/Table';

/** A verb on a queue, and the words for what it acts on (the notice after it). */
export type QueueAction =
  { verb: 'pause' | 'resume' | 'retry-failed'; what: string } | { verb: 'retry' | 'cancel'; id: number; what: string };

interface JobsProps {
  jobs: QueueJob[];
  title: string;
  now: number;
  busy: boolean;
  onAct: (action: QueueAction) => void;
}

/** Waiting jobs listed before "Show more": the failed and running ones come first. */
const WAITING_SHOWN = 5;

const percent = (p: number | null) => (p === null ? '—' : `${Math.floor(p * 100)} %`);

function JobButton({
  job,
  verb,
  label,
  busy,
  onAct,
  secondary,
}: { job: QueueJob; verb: 'retry' | 'cancel'; label: string; secondary?: boolean } & Pick<JobsProps, 'busy' | 'onAct'>) {
  return (
    <button
      type="button"
      className={secondary ? 'admin-secondary' : undefined}
      disabled={busy}
      aria-label={`${label} ${job.what}`}
      onClick={() => onAct({ verb, id: job.id, what: job.what })}
    >
      {label}
    </button>
  );
}

export function FailedJobs({ jobs, title, busy, onAct }: JobsProps) {
  if (jobs.length === 0) return null;
  return (
    <Table caption={`${title}: failed, newest first`} columns={['Job', 'Failed', 'Tries', 'Reason', 'Action']}>
      {jobs.map((job) => (
        <tr key={job.id}>
          <td>{job.what}</td>
          <td>{when(job.since)}</td>
          <td>{job.attempts}</td>
          <td>{job.reason ?? '—'}</td>
          <td>
            <JobButton job={job} verb="retry" label="Retry" busy={busy} onAct={onAct} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

export function RunningJobs({ jobs, title, now }: JobsProps) {
  if (jobs.length === 0) return null;
  return (
    <Table caption={`${title}: running`} columns={['Job', 'Progress', 'Worker', 'Started', 'Try']}>
      {jobs.map((job) => (
        <tr key={job.id}>
          <td>{job.what}</td>
          <td>{percent(job.progress)}</td>
          <td>{job.worker ?? '—'}</td>
          <td>{ago(job.since, now)} ago</td>
          <td>{job.attempts || '—'}</td>
        </tr>
      ))}
    </Table>
  );
}

/** The oldest few waiting jobs (more on request, up to the page's), and how many wait in all. */
export function WaitingJobs({ jobs, title, now, busy, onAct, total, canCancel }: JobsProps & { total: number; canCancel: boolean }) {
  const [all, setAll] = useState(false);
  const shown = all ? jobs : jobs.slice(0, WAITING_SHOWN);
  if (shown.length === 0) return null;
  return (
    <>
      <Table caption={`${title}: waiting, oldest first`} columns={['Job', 'State', 'Since', 'Last failure', 'Action']}>
        {shown.map((job) => (
          <tr key={job.id}>
            <td>{job.what}</td>
            <td>
              {job.state === 'retrying' ? 'Waiting to retry' : 'Waiting'}
              {job.nextTryAt ? ` (next try in ${ago(now, job.nextTryAt)})` : ''}
            </td>
            <td>{when(job.since)}</td>
            <td>{job.reason ?? '—'}</td>
            <td>
              {job.state === 'retrying' && <JobButton job={job} verb="retry" label="Try now" secondary busy={busy} onAct={onAct} />}
              {canCancel && <JobButton job={job} verb="cancel" label="Cancel" secondary busy={busy} onAct={onAct} />}
            </td>
          </tr>
        ))}
      </Table>
      {total > shown.length && (
        <p>
          And {total - shown.length} more waiting.{' '}
          {!all && jobs.length > shown.length && (
            <button type="button" className="admin-secondary" onClick={() => setAll(true)}>
              Show {jobs.length - shown.length} more
            </button>
          )}
        </p>
      )}
    </>
  );
}
