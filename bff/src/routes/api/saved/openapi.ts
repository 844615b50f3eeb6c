import { savedAnswer, savedList, savedReleases } from '@media-site/contracts/saved-api';
import type { Resource } from '../openapi/operation';
import { savedKeyParam, savedTypeParam } from './schema';

const params = { type: savedTypeParam, key: savedKeyParam };
const path = '/api/saved/:type/:key';
const write = ['bad_request', 'unauthenticated', 'forbidden', 'rate_limited', 'too_large'] as const;

export const savedApi: Resource = {
  tag: 'saved',
  description: '"My list": the photo sets, videos, VODs and models a member saved.',
  operations: [
    {
      method: 'get',
      path: '/api/saved',
      summary: 'My list, newest first (hidden items left out)',
      session: 'member',
      answers: { 200: savedList },
      errors: ['unauthenticated'],
    },
    {
      method: 'get',
      path: '/api/saved/releases',
      summary: 'The newest items of the models in My list (home\'s "New from your models")',
      session: 'member',
      answers: { 200: savedReleases },
      errors: ['unauthenticated'],
    },
    {
      method: 'put',
      path,
      summary: 'Save an item (saving it again keeps its place)',
      session: 'member',
      params,
      answers: { 200: savedAnswer },
      errors: [...write, 'not_found', 'conflict'],
    },
    { method: 'delete', path, summary: 'Remove an item from the list', session: 'member', params, answers: { 204: null }, errors: write },
  ],
};
