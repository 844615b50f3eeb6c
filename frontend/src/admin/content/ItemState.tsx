import { when, type ContentItem } from '../shared/api';
import { localTime } from './format';

/** A video's or VOD's encode: waiting, running (how far), done or failed (with its last error). */
export function EncodeState({ item }: { item: ContentItem }) {
  if (item.type !== 'video' && item.type !== 'vod') return <>—</>;
  const job = item.encode;
  if (!job) return <>not queued</>;
  const attempts = `${job.attempts} attempt${job.attempts === 1 ? '' : 's'}`;
  return (
    <span className={`admin-encode admin-encode-${job.status}`}>
      <strong>{job.status === 'running' ? `running ${Math.floor(job.progress * 100)}%` : job.status}</strong>
      {`, ${attempts}`}
      {job.error && <span className="admin-encode-error">Last error: {job.error}</span>}
    </span>
  );
}

/** Published, scheduled (when, in the operator's zone and UTC) or taken down. */
export function Release({ item }: { item: ContentItem }) {
  if (item.takenDown) return <strong>Taken down</strong>;
  if (item.publishAt === null) return <>{item.type === 'model' ? '—' : 'Published'}</>;
  return (
    <span>
      <strong>Scheduled</strong> {localTime(item.publishAt)}
      <br />
      <small>{when(item.publishAt)}</small>
    </span>
  );
}
