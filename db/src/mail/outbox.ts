import type { Knex } from 'knex';
import type { RenderedMail } from './compose';

/** One mail to write to the outbox: `key` names the event it is for, so the same event adds no second mail. */
export interface OutgoingMail extends RenderedMail {
  /** Unique per event, at most 120 characters: 'welcome:attempt:12', 'webhook:345:RenewalSuccess'. */
  key: string;
  to: string;
  /** Which template made it ('password-reset', 'receipt', ...): for logs and metrics, never for the text. */
  template: string;
}

export const MAIL_KEY_MAX = 120;
const SUBJECT_MAX = 200;

/**
 * Writes the mail in `db`, which should be the transaction of what caused it: the mail exists if and
 * only if that change committed. A second mail with the same key is ignored (a replayed event).
 */
export async function enqueueMail(db: Knex, mail: OutgoingMail, now: number): Promise<void> {
  if (mail.key.length === 0 || mail.key.length > MAIL_KEY_MAX) throw new Error(`mail key must be 1-${MAIL_KEY_MAX} characters: ${mail.key.slice(0, 40)}`);
  if (!mail.to || mail.to.length > 254) throw new Error(`mail ${mail.key} has no usable address`);
  const subject = mail.subject.length > SUBJECT_MAX ? `${mail.subject.slice(0, SUBJECT_MAX - 1)}…` : mail.subject;
  await db('mail_outbox')
    .insert({
      mail_key: mail.key,
      to_address: mail.to,
      template: mail.template.slice(0, 40),
      subject,
      text_body: mail.text,
      html_body: mail.html,
      status: 'pending',
      attempts: 0,
      created_at: now,
      next_attempt_at: now,
    })
    .onConflict('mail_key')
    .ignore();
}
