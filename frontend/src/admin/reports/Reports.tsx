import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import {
  APPEAL_DECISIONS,
  DETAILS_MAX,
  EMAIL_MAX,
  NOTE_MAX,
  OUTCOMES,
  REASON_LABELS,
  type AppealDecision,
  type Outcome,
} from '@media-site/contracts/report-vocabulary';
import { adminApi, when, type ReportRow } from '../shared/api';
import { ErrorText } from '../shared/ErrorText';
import { useAdminCall } from '../shared/useAdminCall';

// The report desk (issue 24): open reports and appeals in deadline order, each with where it stands
// against the site's promises (colour AND words), the reported item, and the next step. The same
// rules as `reports ack|resolve|appeal|decide` (one service in db/src/reports/handling.ts).

const OUTCOME_TEXT: Record<Outcome, string> = {
  removed: 'Removed',
  restricted: 'Restricted',
  edited: 'Edited',
  no_action: 'No action',
};
const DECISION_TEXT: Record<AppealDecision, string> = { upheld: 'Upheld (the decision stands)', overturned: 'Overturned' };
const STEP_TEXT = { acknowledge: 'acknowledge', resolve: 'decide', appeal: 'decide the appeal' } as const;

function slaText(r: ReportRow): string {
  const { state, late, next } = r.sla;
  if (state === 'overdue') return `Overdue: ${late.map((s) => STEP_TEXT[s]).join(', ')}`;
  const by = next === null ? '' : ` by ${when(next)}`;
  return state === 'due_soon' ? `Due soon${by}` : `On time: next step${by}`;
}

function nextStep(r: ReportRow): string {
  if (r.resolved_at === null) return r.acknowledged_at === null ? 'Acknowledge, then decide' : 'Decide';
  return 'Decide the appeal';
}

type Form = 'resolve' | 'appeal' | 'decide' | null;

function ReportCard({ r, busy, act }: { r: ReportRow; busy: boolean; act: (call: () => Promise<string>) => Promise<boolean> }) {
  const [form, setForm] = useState<Form>(null);
  const [choice, setChoice] = useState('');
  const [note, setNote] = useState('');
  const [email, setEmail] = useState('');
  const id = useId();
  const open = (f: Form) => {
    setForm(f);
    setChoice('');
    setNote('');
    setEmail('');
  };
  const ref = r.reference;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const done = await act(async () => {
      if (form === 'resolve') {
        await adminApi.reportStep(ref, 'resolve', { outcome: choice, note });
        return `${ref} is decided: ${OUTCOME_TEXT[choice as Outcome]}.`;
      }
      if (form === 'decide') {
        await adminApi.reportStep(ref, 'decide', { decision: choice, note });
        return `The appeal on ${ref} is decided: ${choice}.`;
      }
      await adminApi.reportStep(ref, 'appeal', email.trim() ? { text: note, email } : { text: note });
      return `The appeal on ${ref} is recorded.`;
    });
    if (done) setForm(null);
  }

  const item = r.item;
  return (
    <li className={`admin-report admin-sla-${r.sla.state}`} aria-labelledby={`${id}-ref`}>
      <div className="admin-report-head">
        <h2 id={`${id}-ref`}>{ref}</h2>
        <p className="admin-sla">
          <span aria-hidden="true">{r.sla.state === 'overdue' ? '●' : r.sla.state === 'due_soon' ? '▲' : '✓'} </span>
          {slaText(r)}
        </p>
      </div>
      <div className="admin-report-body">
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
      </div>
      <div className="admin-inline">
        {r.acknowledged_at === null && (
          <button
            type="button"
            disabled={busy}
            onClick={() => void act(async () => (await adminApi.reportStep(ref, 'ack'), `${ref} is acknowledged.`))}
          >
            Acknowledge {ref}
          </button>
        )}
        {r.resolved_at === null && form !== 'resolve' && (
          <button type="button" className="admin-secondary" onClick={() => open('resolve')}>
            Decide…
          </button>
        )}
        {r.resolved_at !== null && r.appealed_at === null && form !== 'appeal' && (
          <button type="button" className="admin-secondary" onClick={() => open('appeal')}>
            Record an appeal…
          </button>
        )}
        {r.appealed_at !== null && r.appeal_decided_at === null && form !== 'decide' && (
          <button type="button" className="admin-secondary" onClick={() => open('decide')}>
            Decide the appeal…
          </button>
        )}
        {item !== null && !item.takenDown && (
          <button
            type="button"
            className="admin-danger"
            disabled={busy}
            onClick={() =>
              void act(
                async () => (
                  await adminApi.takeDown(item.page, `report ${ref}: ${REASON_LABELS[r.reason] ?? r.reason}`, ref),
                  `${item.title} is taken down (report ${ref}).`
                ),
              )
            }
          >
            Take down {item.title}
          </button>
        )}
      </div>
      {form !== null && (
        <form className="admin-step" onSubmit={(e) => void submit(e)}>
          {form !== 'appeal' && (
            <>
              <label htmlFor={`${id}-choice`}>{form === 'resolve' ? 'Outcome' : 'Appeal decision'}</label>
              <select id={`${id}-choice`} required value={choice} onChange={(e) => setChoice(e.target.value)} autoFocus>
                <option value="">Choose…</option>
                {(form === 'resolve' ? OUTCOMES : APPEAL_DECISIONS).map((o) => (
                  <option key={o} value={o}>
                    {form === 'resolve' ? OUTCOME_TEXT[o as Outcome] : DECISION_TEXT[o as AppealDecision]}
                  </option>
                ))}
              </select>
            </>
          )}
          <label htmlFor={`${id}-note`}>
            {form === 'appeal' ? 'The appeal, as received' : 'Note (sent to nobody; kept with the report)'}
          </label>
          <textarea
            id={`${id}-note`}
            required
            rows={3}
            maxLength={form === 'appeal' ? DETAILS_MAX : NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            autoFocus={form === 'appeal'}
          />
          {form === 'appeal' && (
            <>
              <label htmlFor={`${id}-email`}>Appellant's e-mail (optional: they get the acknowledgement and the decision)</label>
              <input id={`${id}-email`} type="email" maxLength={EMAIL_MAX} value={email} onChange={(e) => setEmail(e.target.value)} />
            </>
          )}
          <div className="admin-inline">
            <button type="submit" disabled={busy}>
              {form === 'resolve' ? `Decide ${ref}` : form === 'decide' ? `Decide the appeal on ${ref}` : `Record the appeal on ${ref}`}
            </button>
            <button type="button" className="admin-secondary" onClick={() => setForm(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </li>
  );
}

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
      {notice && (
        <p role="status" className="admin-notice">
          {notice}
        </p>
      )}
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
