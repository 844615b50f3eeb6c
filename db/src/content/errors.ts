import { RuleError } from '../rule-error';

/** Rule violations of the catalog's content: an unknown item, a bad edit, a schedule or teaser refused. */
export class ContentRuleError extends RuleError {}
