import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME } from '@media-site/contracts/member-rules';
import { stop } from '../shared/params';

export { USERNAME };

/** A solved ALTCHA challenge (base64 of JSON, ~1 KB), sent after a `challenge_required` answer. */
export const altchaPayload = z.string().max(4096, stop('altcha: at most 4096 characters')).optional();

export const loginBody = z.object({
  username: z.string().regex(USERNAME, 'username: 3-15 letters, digits or _'),
  password: z.string().min(PASSWORD_MIN, stop()).max(PASSWORD_MAX, stop()),
  altcha: altchaPayload,
});
export type LoginBody = z.infer<typeof loginBody>;

export const downloadLinkQuery = z.object({
  path: z.string().min(1, stop()).max(600, stop()).startsWith('/members/'),
});
