import { resolve } from 'node:path';
import { z } from 'zod';
import { repoRoot } from '@media-site/contracts/embedded-defaults';
import { placeholderReason } from '@media-site/contracts/secret-policy';

const empty = (v: unknown) => (v === '' ? undefined : v);

/** `Name <address>` or a bare address: what a From header holds; no control character (a line break would start a header). */
// eslint-disable-next-line no-control-regex
const MAIL_FROM_FORM = /^(?:[^<>\u0000-\u001f\u007f-\u009f]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

/** Mail: the outbox worker and how it sends (docs/deploy.md "Mail"). */
export const mailConfigShape = {
  SMTP_URL: z
    .preprocess(
      empty,
      z
        .string()
        .trim()
        .optional()
        .refine((v) => v === undefined || (/^smtps?:\/\/[^\s/]/.test(v) && URL.canParse(v)), {
          message: 'must be an smtp:// or smtps:// URL, such as smtps://user:password@smtp.example.com:465',
        }),
    )
    .meta({
      description:
        'the mail relay, nodemailer\'s URL form: `smtps://user:pass@host:465` or `smtp://...:587` (STARTTLS) (docs/deploy.md, "Mail"); unset: each mail is an `.eml` file under `MAIL_DIR`',
      production: 'required unless `MAIL_DIR` is set',
    }),
  MAIL_DIR: z.preprocess(empty, z.string().optional()).meta({
    description:
      'without `SMTP_URL`: each mail an RFC 822 `.eml` file here; outside production the bff logs each file and a reset or confirmation link',
    defaultText: '`$DATA_DIR/outbox`',
  }),
  MAIL_FROM: z
    .preprocess(
      empty,
      z
        .string()
        .trim()
        .max(200)
        .optional()
        .refine((v) => v === undefined || MAIL_FROM_FORM.test(v), {
          message: 'must be an address or "Name <address>", such as "Media Site" <no-reply@example.com>',
        }),
    )
    .meta({
      description: 'the From header; production requires one on your own sending domain (SPF, DKIM)',
      defaultText: '`"<SITE_NAME>" <no-reply@localhost>`',
      production: 'required',
    }),
  MAIL_POLL_MS: z.coerce
    .number()
    .int()
    .min(50)
    .max(60_000)
    .default(1000)
    .describe('how often the outbox worker looks for due mail (it is also woken when a mail is written)'),
  MAIL_WORKER: z
    .enum(['on', 'off'])
    .default('on')
    .describe('whether this bff sends the outbox (off on replicas that should not; mail is still written to the outbox)'),
};

interface MailProductionView {
  SMTP_URL?: string | undefined;
  MAIL_DIR?: string | undefined;
  MAIL_FROM?: string | undefined;
}

const fromDomain = (from: string): string => (/@([^\s<>@]+)>?$/.exec(from)?.[1] ?? '').toLowerCase();

/** Production sends real mail from a real address, or says explicitly that someone collects the files. */
export function refuseMailProblemsInProduction(config: MailProductionView, ctx: z.RefinementCtx): void {
  const issue = (key: keyof MailProductionView, message: string) => ctx.addIssue({ code: 'custom', path: [key], message });
  if (!config.SMTP_URL && !config.MAIL_DIR) {
    issue(
      'SMTP_URL',
      'set the relay mail goes through, such as smtps://user:password@smtp.example.com:465 (or MAIL_DIR, where something else picks .eml files up)',
    );
  }
  if (config.SMTP_URL) {
    let password = '';
    try {
      password = decodeURIComponent(new URL(config.SMTP_URL).password);
    } catch {
      // the shape check reports it
    }
    const reason = password ? placeholderReason(password) : undefined;
    if (reason) issue('SMTP_URL', `the password ${reason}; set the relay's own credentials`);
  }
  const domain = config.MAIL_FROM ? fromDomain(config.MAIL_FROM) : 'localhost';
  if (domain === 'localhost' || domain.endsWith('.localhost') || domain === 'example.com' || domain.endsWith('.example.com')) {
    issue(
      'MAIL_FROM',
      'set the From address on your own sending domain (with SPF/DKIM for it), such as "Media Site" <no-reply@mail.your-site.com>',
    );
  }
}

export interface MailSettings {
  worker: boolean;
  pollMs: number;
  from: string;
  /** Absent: files under `dir`. */
  smtpUrl?: string | undefined;
  dir: string;
}

/**
 * Resolved settings: MAIL_DIR defaults to `outbox` in the data folder (a relative one is taken from the
 * repository root, like MEDIA_ROOT), MAIL_FROM to the site's name at localhost.
 */
export function mailSettings(
  config: {
    SMTP_URL?: string | undefined;
    MAIL_DIR?: string | undefined;
    MAIL_FROM?: string | undefined;
    MAIL_POLL_MS: number;
    MAIL_WORKER: 'on' | 'off';
    SITE_NAME: string;
  },
  dataDir: string,
): MailSettings {
  return {
    worker: config.MAIL_WORKER === 'on',
    pollMs: config.MAIL_POLL_MS,
    from: config.MAIL_FROM ?? `"${config.SITE_NAME.replace(/["\\]/g, '')}" <no-reply@localhost>`,
    smtpUrl: config.SMTP_URL,
    dir: resolve(repoRoot, config.MAIL_DIR ?? resolve(dataDir, 'outbox')),
  };
}
