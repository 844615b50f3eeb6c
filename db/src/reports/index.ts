// Reports, appeals and takedowns: filed through the bff, handled with the operator commands.
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
export { nextRelease, releaseDue, schedule, scheduledItems, unreleasedIds, type ScheduledRow } from './schedule';
export {
  activeTakedowns,
  CONTENT_TABLE,
  contentRefOf,
  hiddenContentIds,
  mediaPrefixesOf,
  restore,
  takeDown,
  takedownLog,
  type ContentRef,
  type ContentTableName,
  type ContentType,
} from './takedowns';
export {
  claimDuePurges,
  enqueuePurge,
  markPurged,
  oldestPendingPurgeAgeMs,
  retryPurge,
  type PurgeAction,
  type QueuedPurge,
} from './purges';
