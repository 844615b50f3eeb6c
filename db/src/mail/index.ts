export { mailSiteFromEnv } from './site';
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
  type OutboxCounts,
  type OutgoingMail,
  type QueuedMail,
} from './outbox';
