import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { WorkerEvent } from './worker';

export { startMetricsServer, type MetricsServer } from '@media-site/contracts/metrics-server';

export interface EncoderMetrics {
  registry: Registry;
  /** The worker's events, counted (pass as workQueue's onEvent). */
  onEvent(event: WorkerEvent): void;
}

/**
 * What one encoder process did: jobs by how they ended, how long a finished one took, how many run
 * now, and queue errors (a database it cannot reach). What the queue holds is the bff's `queue_jobs`.
 */
export function createEncoderMetrics(): EncoderMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'encoder_' });
  const jobs = new Counter({
    name: 'encoder_jobs_total',
    help: 'Jobs this process ended, by outcome: done, retry (failed, tried again later), failed (no tries left), released (handed back at a stop), lost (its lease was taken)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of ['done', 'retry', 'failed', 'released', 'lost']) jobs.inc({ outcome }, 0);
  const duration = new Histogram({
    name: 'encoder_job_duration_seconds',
    help: 'Time from claim to done for a finished job (every rendition, preview and sprite)',
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200],
    registers: [registry],
  });
  const running = new Gauge({ name: 'encoder_jobs_running', help: 'Jobs this process is encoding now', registers: [registry] });
  const errors = new Counter({
    name: 'encoder_queue_errors_total',
    help: 'Reads or writes of the queue that failed (the database down); the worker tries again',
    registers: [registry],
  });
  return {
    registry,
    onEvent(event) {
      switch (event.kind) {
        case 'started':
          running.inc();
          return;
        case 'done':
          running.dec();
          jobs.inc({ outcome: 'done' });
          duration.observe(event.seconds);
          return;
        case 'failed':
          running.dec();
          jobs.inc({ outcome: event.final ? 'failed' : 'retry' });
          return;
        case 'released':
        case 'lost':
          running.dec();
          jobs.inc({ outcome: event.kind });
          return;
        case 'error':
          errors.inc();
          return;
        default:
      }
    },
  };
}
