// Reports, appeals and takedowns: filed through the bff, handled with the operator commands.
export { NO_HOLIDAYS, parseHolidays, type HolidayList } from './business-days';
export { APPEAL_BUSINESS_DAYS, deadlinesOf, nextDeadline, overdue } from './deadlines';
export { ReportRuleError } from './errors';
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
  coverOf,
  isTeasable,
  scheduledTeasers,
  tease,
  teasedItems,
  type ScheduledTeaserRow,
  type TeasedType,
  type TeaserRow,
} from './teasers';
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
