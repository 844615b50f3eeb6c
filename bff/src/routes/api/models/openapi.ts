import { z } from 'zod';
import { modelDetail, modelItem } from '@media-site/contracts/api';
import type { Resource } from '../openapi/operation';
import { letterParam, modelNameParam } from './schema';

export const modelApi: Resource = {
  tag: 'models',
  description: 'Models by first letter, and one model with her photo sets, videos and VODs.',
  operations: [
    {
      method: 'get',
      path: '/api/models/:letter',
      summary: 'The models whose name starts with a letter',
      params: { letter: letterParam },
      answers: { 200: z.array(modelItem) },
      errors: ['bad_request'],
    },
    {
      method: 'get',
      path: '/api/modelname/:name',
      summary: 'One model and her items',
      params: { name: modelNameParam },
      answers: { 200: modelDetail },
      errors: ['bad_request', 'not_found'],
    },
  ],
};
