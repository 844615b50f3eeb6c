import { activityBody } from '@media-site/contracts/content-stats';
import { folderParam } from '../shared/params';
import { playableTypeParam } from '../playback/schema';
import type { Resource } from '../openapi/operation';

export const activityApi: Resource = {
  tag: 'activity',
  description:
    "What members' pages report for the console's Stats: a play started, a play finished; counted per item and day, never per member.",
  operations: [
    {
      method: 'post',
      path: '/api/activity/:type/:folder',
      summary: 'Count a play started or played to the end (once per member, item and event a day)',
      session: 'member',
      params: { type: playableTypeParam, folder: folderParam },
      body: activityBody,
      answers: { 204: null },
      errors: ['bad_request', 'unauthenticated', 'forbidden', 'not_found', 'rate_limited', 'too_large', 'unsupported_media_type'],
    },
  ],
};
