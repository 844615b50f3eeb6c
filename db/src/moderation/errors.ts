import { RuleError } from '../rule-error';

/** Rule violations of reports and appeals (the bff maps only these on its report routes). */
export class ReportRuleError extends RuleError {}
