import { z } from 'zod';
import { photoItem, photoSetDetail } from '@media-site/contracts/api';
import type { Resource } from '../openapi/operation';
import { folderParam, pageParam } from '../shared/params';

const page = (path: string, summary: string) =>
  ({ method: 'get', path, summary, params: { page: pageParam }, answers: { 200: z.array(photoItem) }, errors: ['bad_request'] }) as const;

export const photoApi: Resource = {
  tag: 'photos',
  description: 'Photo sets: the listings (10 a page) and one set with its files.',
  operations: [
    page('/api/photos/:page', 'Photo sets by title'),
    page('/api/photos-by-date/:page', 'Photo sets by date, newest first'),
    {
      method: 'get',
      path: '/api/photos/set/:folder',
      summary: 'One photo set with the names of its photos in order',
      params: { folder: folderParam },
      answers: { 200: photoSetDetail },
      errors: ['bad_request', 'not_found'],
    },
  ],
};
