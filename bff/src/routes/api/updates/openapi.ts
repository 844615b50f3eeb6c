import { z } from 'zod';
import { updateItem } from '@media-site/contracts/api';
import type { Resource } from '../openapi/operation';
import { pageParam } from '../shared/params';

export const updateApi: Resource = {
  tag: 'updates',
  description: "The home page's feed of new photo sets, videos and VODs, newest first.",
  operations: [
    {
      method: 'get',
      path: '/api/updates/:page',
      summary: 'One page of the feed',
      params: { page: pageParam },
      answers: { 200: z.array(updateItem) },
      errors: ['bad_request'],
    },
  ],
};
