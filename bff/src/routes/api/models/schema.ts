import { z } from 'zod';
import { textParam } from '../shared/params';

export const letterParam = z
  .string()
  .regex(/^[A-Za-z]$/, 'letter must be one of A to Z')
  .transform((s) => s.toUpperCase());

/** Same bound as models.modelname. */
export const modelNameParam = textParam('model name', 100);
