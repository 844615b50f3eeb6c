import { z } from 'zod';
import { freeSetItem } from '@media-site/contracts/api';
import type { Resource } from '../openapi/operation';
import { pageParam } from '../shared/params';

export const freePhotoApi: Resource = {
  tag: 'freephotos',
  description: 'The free photo sets, newest first.',
  operations: [
    {
      method: 'get',
      path: '/api/freephotos/:page',
      summary: 'One page of free photo sets',
      params: { page: pageParam },
      answers: { 200: z.array(freeSetItem) },
      errors: ['bad_request'],
    },
  ],
};
