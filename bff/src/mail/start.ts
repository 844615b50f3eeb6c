import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { BffConfig } from '../config';
import { fileTransport, smtpTransport } from './transport';
import { startMailWorker, type MailWorker, type MailWorkerMetrics } from './worker';

/** The bff's outbox sender, unless MAIL_WORKER=off: SMTP_URL's relay, else .eml files under MAIL_DIR. */
export function startMailSender(config: BffConfig, knex: Knex, logger: Logger, metrics: MailWorkerMetrics): MailWorker | undefined {
  const { mail } = config;
  if (!mail.worker) {
    logger.info('mail worker off (MAIL_WORKER=off): another bff sends the outbox');
    return undefined;
  }
  const transport = mail.smtpUrl ? smtpTransport(mail.smtpUrl) : fileTransport(mail.dir);
  const where = mail.smtpUrl ? new URL(mail.smtpUrl).host : mail.dir;
  logger.info({ transport: transport.kind, to: where }, 'mail worker started');
  return startMailWorker({
    knex,
    transport,
    logger,
    from: mail.from,
    pollMs: mail.pollMs,
    logFiles: transport.kind === 'file' && config.NODE_ENV !== 'production',
    metrics,
  });
}
