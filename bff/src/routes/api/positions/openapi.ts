import { continueWatching, positionView } from '@media-site/contracts/playback-api';
import type { Resource } from '../openapi/operation';
import { playableTypeParam } from '../playback/schema';
import { folderParam } from '../shared/params';
import { positionBody } from './schema';

const params = { type: playableTypeParam, folder: folderParam };
const path = '/api/positions/:type/:folder';
const write = ['bad_request', 'unauthenticated', 'forbidden', 'not_found', 'rate_limited', 'too_large', 'unsupported_media_type'] as const;

export const positionApi: Resource = {
  tag: 'positions',
  description: '"Continue watching": where the member is in each video and VOD.',
  operations: [
    {
      method: 'get',
      path: '/api/positions',
      summary: 'The unfinished videos and VODs, most recent first',
      session: 'member',
      answers: { 200: continueWatching },
      errors: ['unauthenticated'],
    },
    {
      method: 'get',
      path,
      summary: 'Where the member is in one video',
      session: 'member',
      params,
      answers: { 200: positionView },
      errors: ['bad_request', 'unauthenticated', 'forbidden', 'not_found'],
    },
    {
      method: 'put',
      path,
      summary: 'Store where the member is',
      session: 'member',
      params,
      body: positionBody,
      answers: { 200: positionView },
      errors: write,
    },
    { method: 'delete', path, summary: 'Forget the position', session: 'member', params, answers: { 204: null }, errors: write },
  ],
};
