import { z } from 'zod';
import { REFERENCE_PATTERN } from '@media-site/db/moderation';
import { DETAILS_MAX, EMAIL_MAX, REPORT_REASONS, URL_MAX } from '@media-site/contracts/report-vocabulary';
import { stop } from '../shared/params';

// eslint-disable-next-line no-control-regex
const NO_CONTROLS = /^[^\u0000-\u0008\v\f\u000e-\u001f\u007f]*$/;

const optionalEmail = z
  .string()
  .trim()
  .max(EMAIL_MAX, stop())
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.email('email: not an e-mail address').optional());

/** What someone writes (a report's details, an appeal's text): trimmed, 1 to DETAILS_MAX characters, no control characters. */
const writtenText = (field: string, missing: string) =>
  z
    .string()
    .trim()
    .min(1, stop(`${field}: ${missing}`))
    .max(DETAILS_MAX, stop())
    .regex(NO_CONTROLS, `${field}: control characters are not allowed`);

export const reportBody = z.object({
  // A page of this site or any URL where our content appears (mirrors, search engines).
  content: z
    .string()
    .trim()
    .min(1, stop('content: give the address of the page or file'))
    .max(URL_MAX, stop())
    .refine(
      (v) => v.startsWith('/') || /^https?:\/\/\S+$/i.test(v),
      'content: give a path on this site (/video/...) or a full http(s) address',
    )
    .refine((v) => !/\s/.test(v), 'content: an address has no spaces'),
  reason: z.enum(REPORT_REASONS, 'reason: choose one of the listed reasons'),
  details: writtenText('details', 'describe the problem'),
  email: optionalEmail,
});
export type ReportBody = z.infer<typeof reportBody>;

export const appealBody = z.object({
  text: writtenText('text', 'give the reasons for your appeal'),
  email: optionalEmail,
});
export type AppealBody = z.infer<typeof appealBody>;

export const referenceParam = z.string().regex(REFERENCE_PATTERN, 'reference: not a report reference (R- and 10 letters or digits)');
