// The catalog's content lifecycle: takedowns and restores (with their CDN purges), scheduled
// releases, teasers, and the console's and CLI's edits. Each change is audited and bumps the catalog
// generation in its transaction.
export { ContentRuleError } from './errors';
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
export { nextRelease, parseReleaseTime, releaseDue, schedule, scheduledItems, unreleasedIds, type ScheduledRow } from './schedule';
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
} from './edit';
export { normalizeTag, normalizeTags, replaceTags, tagsOf, type TaggedType } from './tags';
