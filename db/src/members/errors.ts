import { RuleError } from '../rule-error';

/** Rule violations of the member commands. */
export class MemberRuleError extends RuleError {}
