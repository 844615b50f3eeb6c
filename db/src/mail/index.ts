export { mailSiteFromEnv } from './site';
export { ADDRESS_REFUSED, isPlainAddress, oneLine } from './headers';
export { composeMail, escapeHtml, siteLink, type MailBlock, type MailSite, type RenderedMail } from './compose';
export {
  claimDueMails,
  enqueueMail,
  MAIL_KEY_MAX,
  markFailed,
  markRetry,
  markSent,
  oldestUnsentAgeMs,
  outboxCounts,
  releaseClaim,
  subjectLine,
  type OutboxCounts,
  type OutgoingMail,
  type QueuedMail,
} from './outbox';
export {
  pruneReleaseMail,
  queueReleaseDigests,
  RELEASE_MAIL_GAP_MS,
  RELEASE_WINDOW_MS,
  releaseMailOn,
  setReleaseMail,
  unsubscribeByToken,
  type ReleaseMailLinks,
} from './release-digest';
