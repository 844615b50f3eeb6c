export { composeMail, escapeHtml, siteLink, type MailBlock, type MailSite, type RenderedMail } from './compose';
export { enqueueMail, MAIL_KEY_MAX, type OutgoingMail } from './outbox';
