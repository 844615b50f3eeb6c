// Moderation: reports and appeals filed through the bff, handled from the console and the operator
// commands, with their deadlines in business days, their mail and the item a report names.
export { NO_HOLIDAYS, parseHolidays, type HolidayList } from './business-days';
export { APPEAL_BUSINESS_DAYS, deadlinesOf, nextDeadline, overdue } from './deadlines';
export { ReportRuleError } from './errors';
export {
  acknowledge,
  appeal,
  appealEmailOf,
  CLI_FLAGS,
  decide,
  queueOrder,
  reportChoice,
  reportText,
  resolve,
  slaOf,
  type FieldNames,
  type Sla,
} from './handling';
export { reportedItem, type ReportedItem } from './reported-item';
export { appealDecisionNotices, appealReceivedNotice, outcomeNotice, reportReceivedNotice } from './notices';
export { newReference, REFERENCE_PATTERN } from './reference';
export {
  acknowledgeReport,
  decideAppeal,
  insertReport,
  openReports,
  recordAppeal,
  reportByReference,
  reportsReceived,
  resolveReport,
  type ReportRow,
} from './repository';
