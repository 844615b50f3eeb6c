import { accountView, emailConfirmed, messageAnswer, releaseMailState, renewalCancelled } from '@media-site/contracts/member-api';
import { FORM, LIMITED_FORM, type Operation, type Resource } from '../openapi/operation';
import { emailChangeBody, emailConfirmBody } from './email';
import { changePasswordBody } from './schema';

export const accountApi: Resource = {
  tag: 'account',
  description: "The member's own account, by their session.",
  operations: [
    {
      method: 'get',
      path: '/api/account',
      summary: 'The membership, the e-mail address and the bought VODs',
      session: 'member',
      answers: { 200: accountView },
      errors: ['unauthenticated'],
    },
    {
      method: 'post',
      path: '/api/account/password',
      summary: 'Change the password (the current one required); other sessions end',
      session: 'member',
      body: changePasswordBody,
      answers: { 204: null },
      errors: [...LIMITED_FORM, 'unauthenticated', 'busy'],
    },
    {
      method: 'post',
      path: '/api/account/email',
      summary: 'Ask to change the e-mail address: a link goes to the new one',
      session: 'member',
      body: emailChangeBody,
      answers: { 202: messageAnswer },
      errors: [...LIMITED_FORM, 'unauthenticated', 'busy'],
    },
    {
      method: 'post',
      path: '/api/account/email/confirm',
      summary: "Confirm an e-mail change with the link's token (no session needed)",
      body: emailConfirmBody,
      answers: { 200: emailConfirmed },
      errors: LIMITED_FORM,
    },
    {
      method: 'post',
      path: '/api/account/cancel-renewal',
      summary: "Cancel the membership's renewal at the card provider; access runs to the paid-through day",
      session: 'member',
      answers: { 200: renewalCancelled },
      errors: [...FORM, 'unauthenticated', 'rate_limited', 'conflict', 'payment_refused'],
    },
    ...(
      [
        ['put', 'Release mails on: an e-mail when models in My list release something (nothing released before)'],
        ['delete', 'Release mails off'],
      ] as const
    ).map(([method, summary]): Operation => ({
      method,
      path: '/api/account/release-mail',
      summary,
      session: 'member',
      answers: { 200: releaseMailState },
      errors: [...FORM, 'unauthenticated', 'rate_limited'],
    })),
    {
      method: 'post',
      path: '/api/account/sign-out-everywhere',
      summary: 'End every session and media token of the member',
      session: 'member',
      answers: { 204: null },
      errors: [...FORM, 'unauthenticated'],
    },
  ],
};
