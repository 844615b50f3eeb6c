import { playback } from '@media-site/contracts/playback-api';
import type { Resource } from '../openapi/operation';
import { folderParam } from '../shared/params';
import { playableTypeParam } from './schema';

export const playbackApi: Resource = {
  tag: 'playback',
  description: "The player's page: renditions, previews, downloads and the position, for this session.",
  operations: [
    {
      method: 'get',
      path: '/api/playback/:type/:folder',
      summary: 'Everything the player needs (access says what stands in the way)',
      session: 'member-or-visitor',
      params: { type: playableTypeParam, folder: folderParam },
      answers: { 200: playback },
      errors: ['bad_request', 'not_found'],
    },
  ],
};
