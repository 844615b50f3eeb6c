import { downloadLink, loginChallenge, member } from '@media-site/contracts/member-api';
import { LIMITED_FORM, FORM, type Resource } from '../openapi/operation';
import { downloadLinkQuery, loginBody } from './schema';

export const authApi: Resource = {
  tag: 'auth',
  description: "Members' sign-in and session: the session cookie, the media cookie each answer renews, signed download links.",
  operations: [
    {
      method: 'post',
      path: '/api/login',
      summary: 'Sign in (past a budget, with a solved proof of work)',
      body: loginBody,
      answers: { 200: member },
      errors: [...LIMITED_FORM, 'unauthenticated', 'challenge_required', 'busy'],
    },
    {
      method: 'get',
      path: '/api/login-challenge',
      summary: 'A proof-of-work challenge for a sign-in past its budget',
      answers: { 200: loginChallenge },
      errors: ['rate_limited'],
    },
    {
      method: 'post',
      path: '/api/logout',
      summary: 'Sign out this browser',
      session: 'member-or-visitor',
      answers: { 204: null },
      errors: FORM,
    },
    {
      method: 'get',
      path: '/api/me',
      summary: 'Who is signed in; renews the media cookie',
      session: 'member',
      answers: { 200: member },
      errors: ['unauthenticated'],
    },
    {
      method: 'get',
      path: '/api/download-link',
      summary: 'A signed, resumable link for one /members/ file',
      session: 'member',
      query: downloadLinkQuery,
      answers: { 200: downloadLink },
      errors: ['bad_request', 'unauthenticated', 'forbidden', 'not_found'],
    },
  ],
};
