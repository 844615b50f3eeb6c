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
export { nextRelease, parseReleaseTime, releaseDue, schedule, scheduledItems, unreleasedIds, type ScheduledRow } from './schedule';
export {
  checkEdit,
  CONTENT_KINDS,
  CONTENT_PAGE_MAX,
  CONTENT_PAGE_SIZE_MAX,
  CONTENT_QUERY_MAX,
  CONTENT_STATES,
  contentItem,
  editContent,
  findContent,
  MODEL_MAX,
  requeueEncode,
  TITLE_MAX,
  type ContentEdit,
  type ContentItem,
  type ContentKind,
  type ContentState,
  type EncodeState,
} from './content-admin';
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
