import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '@media-site/contracts/member-rules';

export const changePasswordBody = z.object({
  currentPassword: z.string().min(1, 'required').max(PASSWORD_MAX),
  newPassword: z.string().min(PASSWORD_MIN, `at least ${PASSWORD_MIN} characters`).max(PASSWORD_MAX, `at most ${PASSWORD_MAX} characters`),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;
