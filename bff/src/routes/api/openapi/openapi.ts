import { z } from 'zod';
import type { Resource } from './operation';

export const openApiApi: Resource = {
  tag: 'openapi',
  description: 'This description.',
  operations: [
    {
      method: 'get',
      path: '/api/openapi.json',
      summary: 'The OpenAPI 3.1 document of every /api route',
      answers: { 200: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) }) },
      errors: [],
    },
  ],
};
