import { useId, useState } from 'react';
import { REASON_LABELS } from '@media-site/contracts/report-vocabulary';
import { adminApi, type ReportRow } from '../shared/api';
import { ReportedItem, ReportFacts } from './ReportDetails';
import { slaText } from './report-text';
import { StepForm, type Step } from './StepForm';

type Act = (call: () => Promise<string>) => Promise<boolean>;

/** One report: where it stands, the item, the facts, and the steps it may take next. */
export function ReportCard({ r, busy, act }: { r: ReportRow; busy: boolean; act: Act }) {
  const [step, setStep] = useState<Step | null>(null);
  const id = useId();
  return (
    <li className={`admin-report admin-sla-${r.sla.state}`} aria-labelledby={`${id}-ref`}>
      <div className="admin-report-head">
        <h2 id={`${id}-ref`}>{r.reference}</h2>
        <p className="admin-sla">
          <span aria-hidden="true">{r.sla.state === 'overdue' ? '●' : r.sla.state === 'due_soon' ? '▲' : '✓'} </span>
          {slaText(r)}
        </p>
      </div>
      <div className="admin-report-body">
        <ReportedItem r={r} />
        <ReportFacts r={r} />
      </div>
      <StepButtons r={r} step={step} busy={busy} act={act} onStep={setStep} />
      {step !== null && <StepForm key={step} step={step} reference={r.reference} busy={busy} act={act} onClose={() => setStep(null)} />}
    </li>
  );
}

/** Acknowledge and take down go at once; deciding and appeals open their form. */
function StepButtons({
  r,
  step,
  busy,
  act,
  onStep,
}: {
  r: ReportRow;
  step: Step | null;
  busy: boolean;
  act: Act;
  onStep: (step: Step) => void;
}) {
  const ref = r.reference;
  const item = r.item;
  const acknowledge = async () => (await adminApi.reportStep(ref, 'ack'), `${ref} is acknowledged.`);
  const takeDown = async (page: string, title: string) => (
    await adminApi.takeDown(page, `report ${ref}: ${REASON_LABELS[r.reason] ?? r.reason}`, ref),
    `${title} is taken down (report ${ref}).`
  );
  return (
    <div className="admin-inline">
      {r.acknowledged_at === null && (
        <button type="button" disabled={busy} onClick={() => void act(acknowledge)}>
          Acknowledge {ref}
        </button>
      )}
      {r.resolved_at === null && step !== 'resolve' && (
        <button type="button" className="admin-secondary" onClick={() => onStep('resolve')}>
          Decide…
        </button>
      )}
      {r.resolved_at !== null && r.appealed_at === null && step !== 'appeal' && (
        <button type="button" className="admin-secondary" onClick={() => onStep('appeal')}>
          Record an appeal…
        </button>
      )}
      {r.appealed_at !== null && r.appeal_decided_at === null && step !== 'decide' && (
        <button type="button" className="admin-secondary" onClick={() => onStep('decide')}>
          Decide the appeal…
        </button>
      )}
      {item !== null && !item.takenDown && (
        <button type="button" className="admin-danger" disabled={busy} onClick={() => void act(() => takeDown(item.page, item.title))}>
          Take down {item.title}
        </button>
      )}
    </div>
  );
}
