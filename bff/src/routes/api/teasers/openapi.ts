import { z } from 'zod';
import { teaserItem } from '@media-site/contracts/api';
import type { Resource } from '../openapi/operation';

export const teaserApi: Resource = {
  tag: 'teasers',
  description: '"Coming soon": teased items not released yet, soonest first.',
  operations: [{ method: 'get', path: '/api/coming-soon', summary: 'The teased items', answers: { 200: z.array(teaserItem) }, errors: [] }],
};
