import { z } from 'zod';
import { vodDetail, vodItem } from '@media-site/contracts/api';
import type { Resource } from '../openapi/operation';
import { folderParam, pageParam } from '../shared/params';

export const vodApi: Resource = {
  tag: 'vod',
  description: 'VODs (bought one by one): the listing and one VOD with its price and download path.',
  operations: [
    {
      method: 'get',
      path: '/api/vod/:page',
      summary: 'VODs by date, newest first',
      params: { page: pageParam },
      answers: { 200: z.array(vodItem) },
      errors: ['bad_request'],
    },
    {
      method: 'get',
      path: '/api/vod/prename/:folder',
      summary: 'One VOD',
      params: { folder: folderParam },
      answers: { 200: vodDetail },
      errors: ['bad_request', 'not_found'],
    },
  ],
};
