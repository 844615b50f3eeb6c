import { RuleError } from '../rule-error';

/** Rule violations of the operator accounts (`admin add|disable`, the console's sign-in). */
export class AdminRuleError extends RuleError {}
