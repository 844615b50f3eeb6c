import { useId, useState, type FormEvent } from 'react';
import {
  APPEAL_DECISIONS,
  DETAILS_MAX,
  EMAIL_MAX,
  NOTE_MAX,
  OUTCOMES,
  type AppealDecision,
  type Outcome,
} from '@media-site/contracts/report-vocabulary';
import { adminApi } from '../shared/api';
import { DECISION_TEXT, OUTCOME_TEXT } from './report-text';

export type Step = 'resolve' | 'appeal' | 'decide';

/** A decision (an outcome), an appeal as received, or the appeal's decision; each with its note. */
export function StepForm({
  step,
  reference: ref,
  busy,
  act,
  onClose,
}: {
  step: Step;
  reference: string;
  busy: boolean;
  act: (call: () => Promise<string>) => Promise<boolean>;
  onClose: () => void;
}) {
  const [choice, setChoice] = useState('');
  const [note, setNote] = useState('');
  const [email, setEmail] = useState('');
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const done = await act(async () => {
      if (step === 'resolve') {
        await adminApi.reportStep(ref, 'resolve', { outcome: choice, note });
        return `${ref} is decided: ${OUTCOME_TEXT[choice as Outcome]}.`;
      }
      if (step === 'decide') {
        await adminApi.reportStep(ref, 'decide', { decision: choice, note });
        return `The appeal on ${ref} is decided: ${choice}.`;
      }
      await adminApi.reportStep(ref, 'appeal', email.trim() ? { text: note, email } : { text: note });
      return `The appeal on ${ref} is recorded.`;
    });
    if (done) onClose();
  }

  return (
    <form className="admin-step" onSubmit={(e) => void submit(e)}>
      {step !== 'appeal' && (
        <>
          <label htmlFor={`${id}-choice`}>{step === 'resolve' ? 'Outcome' : 'Appeal decision'}</label>
          <select id={`${id}-choice`} required value={choice} onChange={(e) => setChoice(e.target.value)} autoFocus>
            <option value="">Choose…</option>
            {(step === 'resolve' ? OUTCOMES : APPEAL_DECISIONS).map((o) => (
              <option key={o} value={o}>
                {step === 'resolve' ? OUTCOME_TEXT[o as Outcome] : DECISION_TEXT[o as AppealDecision]}
              </option>
            ))}
          </select>
        </>
      )}
      <label htmlFor={`${id}-note`}>{step === 'appeal' ? 'The appeal, as received' : 'Note (sent to nobody; kept with the report)'}</label>
      <textarea
        id={`${id}-note`}
        required
        rows={3}
        maxLength={step === 'appeal' ? DETAILS_MAX : NOTE_MAX}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        autoFocus={step === 'appeal'}
      />
      {step === 'appeal' && (
        <>
          <label htmlFor={`${id}-email`}>Appellant's e-mail (optional: they get the acknowledgement and the decision)</label>
          <input id={`${id}-email`} type="email" maxLength={EMAIL_MAX} value={email} onChange={(e) => setEmail(e.target.value)} />
        </>
      )}
      <div className="admin-inline">
        <button type="submit" disabled={busy}>
          {step === 'resolve' ? `Decide ${ref}` : step === 'decide' ? `Decide the appeal on ${ref}` : `Record the appeal on ${ref}`}
        </button>
        <button type="button" className="admin-secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
