import { messageAnswer } from '@media-site/contracts/member-api';
import type { Resource } from '../openapi/operation';
import { unsubscribeBody, unsubscribeQuery } from './routes';

export const mailApi: Resource = {
  tag: 'mail',
  description: "The links in the site's mails that work without a session.",
  operations: [
    {
      method: 'get',
      path: '/api/mail/unsubscribe',
      summary:
        'A release mail\'s unsubscribe address opened in a browser: a 303 to the page with the "Stop release mails" button (changes nothing)',
      query: unsubscribeQuery,
      answers: { 303: null },
      errors: ['bad_request'],
    },
    {
      method: 'post',
      path: '/api/mail/unsubscribe',
      summary: "Release mails off for the mail's member: RFC 8058's one-click POST (the token is the credential)",
      query: unsubscribeQuery,
      body: unsubscribeBody,
      form: true,
      answers: { 200: messageAnswer },
      errors: ['bad_request', 'not_found', 'rate_limited', 'too_large', 'unsupported_media_type'],
    },
  ],
};
