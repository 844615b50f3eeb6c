import { webhookReceipt } from '@media-site/contracts/member-api';
import type { Resource } from '../openapi/operation';
import { webhookBody, webhookQuery } from './schema';

export const webhookApi: Resource = {
  tag: 'webhooks',
  description: "The provider's subscription events, from its addresses through the front door only.",
  operations: [
    {
      method: 'post',
      path: '/api/ccbill/webhook',
      summary: 'Store (once) and apply one subscription event',
      query: webhookQuery,
      body: webhookBody,
      form: true,
      answers: { 200: webhookReceipt },
      errors: ['forbidden', 'bad_request', 'too_large', 'unsupported_media_type'],
    },
  ],
};
