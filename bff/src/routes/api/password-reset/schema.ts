import { z } from 'zod';
import { EMAIL, EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN, USERNAME } from '@media-site/contracts/member-rules';
import { stop } from '../shared/params';
import { altchaPayload } from '../auth/schema';

/** Longer than any token we issue (43 characters): the service answers every unknown token alike. */
export const TOKEN_MAX = 100;

/**
 * A trimmed, non-empty value no longer than an e-mail address may be, for "Forgot password?" and
 * the e-mail change: both length checks end the parse before the caller's pattern runs.
 */
export const emailSized = (whenEmpty: string) =>
  z
    .string()
    .trim()
    .min(1, stop(whenEmpty))
    .max(EMAIL_MAX, stop(`at most ${EMAIL_MAX} characters`));

/**
 * A username or an e-mail address, by its shape; which accounts match is never said. `altcha`: the
 * sign-in's proof of work, once the login's or the address's budget is spent (limits.ts).
 */
export const passwordResetBody = z.object({
  login: emailSized('give your username or e-mail address').refine(
    (v) => (v.includes('@') ? EMAIL.test(v) : USERNAME.test(v)),
    'give a username (3-15 letters, digits or _) or an e-mail address',
  ),
  altcha: altchaPayload,
});
export type PasswordResetBody = z.infer<typeof passwordResetBody>;

/** The password rules of joining and of the signed-in change (account/schema.ts). */
export const newPasswordRule = z
  .string()
  .min(PASSWORD_MIN, stop(`at least ${PASSWORD_MIN} characters`))
  .max(PASSWORD_MAX, stop(`at most ${PASSWORD_MAX} characters`));

export const linkToken = z
  .string()
  .min(1, stop('required'))
  .max(TOKEN_MAX, stop(`at most ${TOKEN_MAX} characters`));

export const passwordResetConfirmBody = z.object({
  token: linkToken,
  newPassword: newPasswordRule,
});
export type PasswordResetConfirmBody = z.infer<typeof passwordResetConfirmBody>;
