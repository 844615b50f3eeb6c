import type { Knex } from 'knex';
import type { Logger } from 'pino';
import {
  ADDRESS_REFUSED,
  claimDueMails,
  isPlainAddress,
  markFailed,
  markRetry,
  markSent,
  releaseClaim,
  subjectLine,
  type QueuedMail,
} from '@media-site/db/mail';
import { doublingDelay } from '@media-site/db/queues';
import { classifySendError, messageIdFor, type MailTransport, type SendFailure } from './transport';

/** What the worker counts (bff/src/metrics.ts turns these into mail_sent_total and mail_send_failures_total). */
export interface MailWorkerMetrics {
  sent(template: string): void;
  failure(kind: SendFailure): void;
}

export interface MailWorkerOptions {
  knex: Knex;
  transport: MailTransport;
  logger: Logger;
  from: string;
  /** Look for due mail this often (and at once after nudgeMail()). */
  pollMs: number;
  /** With the file transport outside production: log each file and a reset or confirmation link in it. */
  logFiles?: boolean;
  /** Mails claimed per pass. */
  batch?: number;
  /** Sends in flight at once (the SMTP pool has as many connections). */
  concurrency?: number;
  /** While the relay is unreachable, try it again this often. */
  relayProbeMs?: number;
  /** A claimed row is another sender's again after this long (a sender that died mid-send). */
  leaseMs?: number;
  /** Delay before retrying a mail refused temporarily `attempts` times already. */
  backoffMs?: (attempts: number) => number;
  metrics?: MailWorkerMetrics;
  /** Unix ms; tests move the clock. */
  now?: () => number;
}

export interface MailWorker {
  /** Look for due mail now (a mail was just committed), unless the relay is known down. */
  nudge(): void;
  /** Stops polling and waits for the sends in flight. */
  stop(): Promise<void>;
}

const HOUR = 3_600_000;
/** Temporary refusals of one mail before it counts as failed: with the backoff capped at an hour, about two days. */
export const MAX_TEMPORARY_ATTEMPTS = 48;

/** 30 s, 1 min, 2 min, ... capped at an hour, each ±20 % so mails refused together do not come back together. */
export const defaultBackoffMs = (attempts: number): number => doublingDelay(attempts + 1, 30_000, HOUR) * (0.8 + Math.random() * 0.4);

const LINK_TEMPLATES = new Set(['password-reset', 'email-confirm']);
const URLS = /https?:\/\/\S+/g;

/** The link a reset or confirmation mail is for: the first one with a path (the signature links the site's root). */
const linkIn = (text: string): string | undefined => [...text.matchAll(URLS)].map((m) => m[0]).find((u) => new URL(u).pathname.length > 1);

/** Every transport timeout is shorter; past this a send is taken as stuck (a bug, not the relay). */
const SEND_GUARD_MS = 3 * 60_000;

class SendHung extends Error {}

function guarded<T>(send: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SendHung(`mail send still unanswered after ${SEND_GUARD_MS / 1000} s`)), SEND_GUARD_MS);
  });
  return Promise.race([send, hung]).finally(() => clearTimeout(timer));
}

const running = new Set<MailWorker>();

/**
 * RFC 8058's one-click unsubscribe for a mail that has an address for it (the release digest): mail
 * providers POST `List-Unsubscribe=One-Click` to it. Only an http(s) address of one line without
 * angle brackets is used (the outbox wrote it from configuration and a token, never from a request).
 */
export function unsubscribeHeaders(address: string | null): { headers?: Record<string, string> } {
  if (!address || address.length > 300 || !/^https?:\/\/[^\s<>]+$/.test(address)) return {};
  return { headers: { 'List-Unsubscribe': `<${address}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
}

/** Wakes this process's mail workers: call after committing a transaction that enqueued mail. */
export function nudgeMail(): void {
  for (const worker of running) worker.nudge();
}

const describe = (err: unknown): string => {
  const e = err as { code?: string; response?: string; message?: string };
  return [e.code, e.response ?? e.message].filter(Boolean).join(' ') || String(err);
};

export function startMailWorker(options: MailWorkerOptions): MailWorker {
  const { knex, transport, logger, from, pollMs } = options;
  const batch = options.batch ?? 50;
  const concurrency = options.concurrency ?? 5;
  const relayProbeMs = options.relayProbeMs ?? 3000;
  // Longer than a batch can take: 50 mails over 5 connections, each at most 30 s of socket time.
  const leaseMs = options.leaseMs ?? 10 * 60_000;
  const backoffMs = options.backoffMs ?? defaultBackoffMs;
  const now = options.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  /** Set while the relay is unreachable: no pass before this time, however often nudged. */
  let relayDownUntil = 0;

  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(run, ms);
    timer.unref();
  };

  /** Sends one claimed mail (adding it to `sent` once accepted); says whether the relay turned out to be unreachable. */
  async function sendOne(mail: QueuedMail, sent: number[]): Promise<boolean> {
    // The outbox refused these already; a row written another way (or before it did) is checked again.
    if (!isPlainAddress(mail.to)) {
      await markFailed(knex, mail.id, now(), ADDRESS_REFUSED);
      options.metrics?.failure('permanent');
      logger.error({ mail: mail.key, template: mail.template }, `mail not sent: ${ADDRESS_REFUSED}`);
      return false;
    }
    const messageId = messageIdFor(mail.key, from);
    const subject = subjectLine(mail.subject);
    let file: string | undefined;
    try {
      const headers = unsubscribeHeaders(mail.listUnsubscribe);
      ({ file } = await guarded(transport.send({ from, to: mail.to, subject, text: mail.text, html: mail.html, messageId, ...headers })));
    } catch (err) {
      const kind = classifySendError(err);
      options.metrics?.failure(kind);
      const error = describe(err);
      if (err instanceof SendHung) {
        // It may still go through: the row keeps its lease (a resend, if any, only after it lapses).
        logger.error({ mail: mail.key, template: mail.template }, error);
        return true;
      }
      if (kind === 'relay_down') {
        await releaseClaim(knex, mail.id, error);
        return true;
      }
      if (kind === 'permanent' || mail.attempts + 1 >= MAX_TEMPORARY_ATTEMPTS) {
        await markFailed(knex, mail.id, now(), error);
        logger.error({ mail: mail.key, template: mail.template, attempts: mail.attempts + 1, err: error }, 'mail refused: not sent');
      } else {
        await markRetry(knex, mail.id, now() + backoffMs(mail.attempts), error);
        logger.warn(
          { mail: mail.key, template: mail.template, attempts: mail.attempts + 1, err: error },
          'mail refused for now: retried later',
        );
      }
      return false;
    }
    sent.push(mail.id);
    options.metrics?.sent(mail.template);
    if (file && options.logFiles) {
      const link = LINK_TEMPLATES.has(mail.template) ? linkIn(mail.text) : undefined;
      logger.info({ file, template: mail.template, ...(link ? { link } : {}) }, `mail written to ${file}`);
    }
    return false;
  }

  /** One batch; says whether to go again at once (a full batch: more may be due). */
  async function sendBatch(): Promise<boolean> {
    const mails = await claimDueMails(knex, now(), batch, leaseMs);
    // Marked together after the batch: a crash before that resends them after the lease, under the
    // same Message-ID (a duplicate a mail client shows once), never loses them.
    const sent: number[] = [];
    let down = false;
    const next = mails[Symbol.iterator]();
    const lane = async () => {
      for (let step = next.next(); !step.done; step = next.next()) {
        const mail = step.value;
        // The relay is down: what is left of the batch waits, untried and unclaimed.
        if (down) await releaseClaim(knex, mail.id, 'not tried: the relay was unreachable');
        else if (await sendOne(mail, sent)) down = true;
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, mails.length) }, lane));
    } finally {
      await markSent(knex, sent, now());
    }
    if (down) {
      if (relayDownUntil === 0) logger.warn({ transport: transport.kind }, 'mail relay unreachable: mail waits in the outbox');
      relayDownUntil = Date.now() + relayProbeMs;
      return false;
    }
    if (relayDownUntil !== 0 && mails.length > 0) {
      relayDownUntil = 0;
      logger.info({ transport: transport.kind }, 'mail relay reachable again: sending the outbox');
    }
    return mails.length === batch;
  }

  function run(): void {
    if (stopped || pass) return;
    again = false;
    pass = sendBatch()
      .catch((err: unknown) => {
        // The database is unreachable, most likely: the rows wait; their leases lapse if claimed.
        logger.warn({ err: describe(err) }, 'mail outbox pass failed');
        return false;
      })
      .then((more) => {
        pass = undefined;
        const waitForRelay = relayDownUntil - Date.now();
        schedule(waitForRelay > 0 ? waitForRelay : more || again ? 0 : pollMs);
      });
  }

  const worker: MailWorker = {
    nudge() {
      if (stopped || Date.now() < relayDownUntil) return;
      if (pass) again = true;
      else schedule(0);
    },
    async stop() {
      stopped = true;
      running.delete(worker);
      clearTimeout(timer);
      await pass;
      transport.close();
    },
  };
  running.add(worker);
  schedule(0);
  return worker;
}
