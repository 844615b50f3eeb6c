import { reportStatus } from '@media-site/contracts/member-api';
import { LIMITED_FORM, type Resource } from '../openapi/operation';
import { appealBody, referenceParam, reportBody } from './schema';

export const reportApi: Resource = {
  tag: 'reports',
  description: 'The /contact report form, a report by its reference, and the appeal.',
  operations: [
    {
      method: 'post',
      path: '/api/reports',
      summary: 'Report content; the answer holds the reference and the deadlines',
      body: reportBody,
      answers: { 201: reportStatus },
      errors: LIMITED_FORM,
    },
    {
      method: 'get',
      path: '/api/reports/:reference',
      summary: 'Where a report stands',
      params: { reference: referenceParam },
      answers: { 200: reportStatus },
      errors: ['bad_request', 'not_found', 'rate_limited'],
    },
    {
      method: 'post',
      path: '/api/reports/:reference/appeal',
      summary: 'Appeal the outcome of a resolved report',
      params: { reference: referenceParam },
      body: appealBody,
      answers: { 200: reportStatus },
      errors: [...LIMITED_FORM, 'not_found', 'conflict'],
    },
  ],
};
