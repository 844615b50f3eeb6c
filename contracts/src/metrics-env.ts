import { z } from 'zod';

/** Every service's Prometheus port (metrics-server.ts): the same two variables, the same meaning. */
export const metricsEnv = {
  METRICS_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .optional()
    .describe('Prometheus `/metrics` on an internal port of its own; unset = off, 0 = any free port'),
  METRICS_HOST: z.string().min(1).default('127.0.0.1').describe("the metrics port's address"),
};
