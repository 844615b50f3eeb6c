import { z } from 'zod';
import { videoItem, videoPrename } from '@media-site/contracts/api';
import type { Resource } from '../openapi/operation';
import { folderParam, pageParam } from '../shared/params';

const page = (path: string, summary: string) =>
  ({ method: 'get', path, summary, params: { page: pageParam }, answers: { 200: z.array(videoItem) }, errors: ['bad_request'] }) as const;

export const videoApi: Resource = {
  tag: 'videos',
  description: 'Videos (members): the listings (10 a page) and one video with its download name.',
  operations: [
    page('/api/videos/:page', 'Videos by title'),
    page('/api/videos-by-date/:page', 'Videos by date, newest first'),
    {
      method: 'get',
      path: '/api/videos/prename/:folder',
      summary: 'One video: its download name and path',
      params: { folder: folderParam },
      answers: { 200: videoPrename },
      errors: ['bad_request', 'not_found'],
    },
  ],
};
