import { backendHandle, frontendToken, paymentConfig, paymentOutcome, usernameAvailability } from '@media-site/contracts/member-api';
import { LIMITED_FORM, type Resource } from '../openapi/operation';
import { backendHandleBody, frontendTokenBody, processPaymentBody, usernameQuery } from './schema';

export const paymentApi: Resource = {
  tag: 'payments',
  description: 'The server side of the join and buy form: four steps, the card details going to the provider only.',
  operations: [
    {
      method: 'post',
      path: '/api/get_ccbill_token',
      summary: "Step 1: check the username (or the VOD to buy) and hand out the provider's frontend bearer",
      session: 'member-or-visitor',
      body: frontendTokenBody,
      answers: { 200: frontendToken },
      errors: [...LIMITED_FORM, 'unauthenticated', 'not_found', 'conflict'],
    },
    {
      method: 'post',
      path: '/api/get_ccbill_back_token',
      summary: 'Step 3: a single-use handle bound to this checkout and the payment token step 2 made',
      body: backendHandleBody,
      answers: { 200: backendHandle },
      errors: LIMITED_FORM,
    },
    {
      method: 'post',
      path: '/api/process_payment',
      summary: 'Step 4: charge; an approved payment signs this browser in',
      session: 'member-or-visitor',
      body: processPaymentBody,
      answers: { 200: paymentOutcome, 202: paymentOutcome },
      errors: [...LIMITED_FORM, 'unauthenticated', 'conflict', 'busy'],
    },
    {
      method: 'get',
      path: '/api/username-available',
      summary: "Whether the join form's username is free",
      query: usernameQuery,
      answers: { 200: usernameAvailability },
      errors: ['bad_request', 'rate_limited'],
    },
    {
      method: 'get',
      path: '/api/payment-config',
      summary: 'The provider origin and account the form talks to, and the membership price',
      answers: { 200: paymentConfig },
      errors: [],
    },
  ],
};
