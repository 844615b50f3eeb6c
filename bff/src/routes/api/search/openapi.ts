import { searchResult } from '@media-site/contracts/api';
import type { Resource } from '../openapi/operation';
import { searchTermParam } from './schema';

export const searchApi: Resource = {
  tag: 'search',
  description: 'Search by title and model name: every word must match, in any order.',
  operations: [
    {
      method: 'get',
      path: '/api/search/:term',
      summary: 'Photo sets, videos and VODs matching every word',
      params: { term: searchTermParam },
      answers: { 200: searchResult },
      errors: ['bad_request'],
    },
  ],
};
