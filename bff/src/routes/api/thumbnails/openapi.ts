import { z } from 'zod';
import type { Resource } from '../openapi/operation';
import { folderParam } from '../shared/params';

const list = (path: string, summary: string) =>
  ({
    method: 'get',
    path,
    summary,
    params: { folder: folderParam },
    answers: { 200: z.array(z.string()) },
    errors: ['bad_request', 'not_found'],
  }) as const;

export const thumbnailApi: Resource = {
  tag: 'thumbnails',
  description: "A set's thumbnail file names, in order.",
  operations: [
    list('/api/thumbnails/:folder', "A photo set's thumbnails"),
    list('/api/freethumbnails/:folder', "A free photo set's thumbnails"),
  ],
};
