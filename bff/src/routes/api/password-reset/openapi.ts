import { member, messageAnswer } from '@media-site/contracts/member-api';
import { LIMITED_FORM, type Resource } from '../openapi/operation';
import { passwordResetBody, passwordResetConfirmBody } from './schema';

export const passwordResetApi: Resource = {
  tag: 'password-reset',
  description: '"Forgot password?": a link by username or e-mail, then a new password with it.',
  operations: [
    {
      method: 'post',
      path: '/api/password-reset',
      summary: 'Ask for a reset link (the same answer whether or not an account matches)',
      body: passwordResetBody,
      answers: { 202: messageAnswer },
      errors: [...LIMITED_FORM, 'challenge_required'],
    },
    {
      method: 'post',
      path: '/api/password-reset/confirm',
      summary: "Set a new password with the link's token; signs this browser in",
      body: passwordResetConfirmBody,
      answers: { 200: member },
      errors: [...LIMITED_FORM, 'busy'],
    },
  ],
};
