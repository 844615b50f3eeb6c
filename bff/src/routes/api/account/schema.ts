import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '@media-site/contracts/member-rules';
import { stop } from '../shared/params';

export const changePasswordBody = z.object({
  currentPassword: z.string().min(1, stop('required')).max(PASSWORD_MAX, stop()),
  newPassword: z
    .string()
    .min(PASSWORD_MIN, stop(`at least ${PASSWORD_MIN} characters`))
    .max(PASSWORD_MAX, stop(`at most ${PASSWORD_MAX} characters`)),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;
