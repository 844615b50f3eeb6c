import type { AppealDecision, Outcome } from '@media-site/contracts/report-vocabulary';
import { when, type ReportRow } from '../shared/api';

export const OUTCOME_TEXT: Record<Outcome, string> = {
  removed: 'Removed',
  restricted: 'Restricted',
  edited: 'Edited',
  no_action: 'No action',
};
export const DECISION_TEXT: Record<AppealDecision, string> = { upheld: 'Upheld (the decision stands)', overturned: 'Overturned' };
const STEP_TEXT = { acknowledge: 'acknowledge', resolve: 'decide', appeal: 'decide the appeal' } as const;

/** Where the report stands against the site's promises, in words (the colour and shape say it too). */
export function slaText(r: ReportRow): string {
  const { state, late, next } = r.sla;
  if (state === 'overdue') return `Overdue: ${late.map((s) => STEP_TEXT[s]).join(', ')}`;
  const by = next === null ? '' : ` by ${when(next)}`;
  return state === 'due_soon' ? `Due soon${by}` : `On time: next step${by}`;
}

export function nextStep(r: ReportRow): string {
  if (r.resolved_at === null) return r.acknowledged_at === null ? 'Acknowledge, then decide' : 'Decide';
  return 'Decide the appeal';
}
