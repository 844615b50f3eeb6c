import { REASON_LABELS } from '@media-site/contracts/report-vocabulary';
import { when, type ReportRow } from '../shared/api';
import { nextStep } from './report-text';

/** The reported item as visitors saw it: its picture and page, "Taken down", or the address alone. */
export function ReportedItem({ r }: { r: ReportRow }) {
  const item = r.item;
  return (
    <figure className="admin-preview">
      {item === null ? (
        <figcaption>
          The reported address names no item in the catalog: <span className="admin-json">{r.content_url}</span>
        </figcaption>
      ) : (
        <>
          {item.takenDown ? (
            <p className="admin-takendown">Taken down: its files answer 410 and it is hidden from every listing.</p>
          ) : item.thumbnail ? (
            <img src={item.thumbnail} alt={`Preview of ${item.title}`} width={200} loading="lazy" />
          ) : (
            <p>No picture for this item.</p>
          )}
          <figcaption>
            <a href={item.page} target="_blank" rel="noreferrer">
              {item.title}
            </a>{' '}
            ({item.type} {item.path})
          </figcaption>
        </>
      )}
    </figure>
  );
}

/** The report's reason and details, each deadline and what was done by it, and the next step. */
export function ReportFacts({ r }: { r: ReportRow }) {
  return (
    <dl className="admin-facts">
      <dt>Reason</dt>
      <dd>{REASON_LABELS[r.reason] ?? r.reason}</dd>
      <dt>Details</dt>
      <dd className="admin-details">{r.details}</dd>
      <dt>Received</dt>
      <dd>{when(r.created_at)}</dd>
      <dt>Acknowledge by</dt>
      <dd>
        {when(r.deadlines.acknowledgeBy)}
        {r.acknowledged_at !== null && ` (done ${when(r.acknowledged_at)} by ${r.acknowledged_by ?? '?'})`}
      </dd>
      <dt>Decide by</dt>
      <dd>
        {when(r.deadlines.resolveBy)}
        {r.resolved_at !== null && ` (decided ${when(r.resolved_at)}: ${r.outcome ?? ''}, by ${r.resolved_by ?? '?'})`}
      </dd>
      {r.appealed_at !== null && (
        <>
          <dt>Appeal</dt>
          <dd className="admin-details">
            received {when(r.appealed_at)}, decide by {when(r.deadlines.appealDecideBy)}: {r.appeal_text}
          </dd>
        </>
      )}
      <dt>Next step</dt>
      <dd>{nextStep(r)}</dd>
    </dl>
  );
}
