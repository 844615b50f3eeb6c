import { searchResult } from '@media-site/contracts/api';
import type { Resource } from '../openapi/operation';
import { searchFiltersQuery, searchTermParam } from './schema';

export const searchApi: Resource = {
  tag: 'search',
  description:
    'Search by title and model name (every word must match, in any order), narrowed by type, model, tag, running time and release window, sorted A–Z, newest or longest, with counts per filter value.',
  operations: [
    {
      method: 'get',
      path: '/api/search/:term',
      summary: 'Photo sets, videos and VODs matching every word and the filters',
      params: { term: searchTermParam },
      query: searchFiltersQuery,
      answers: { 200: searchResult },
      errors: ['bad_request'],
    },
    {
      method: 'get',
      path: '/api/search',
      summary: 'Photo sets, videos and VODs passing the filters (at least one filter)',
      query: searchFiltersQuery,
      answers: { 200: searchResult },
      errors: ['bad_request'],
    },
  ],
};
