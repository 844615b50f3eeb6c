import { describe, expect, it } from 'vitest';
import { createEncoderMetrics } from './metrics';
import type { WorkerEvent } from './worker';

describe('encoder metrics', () => {
  it('count jobs by how they ended, time the finished ones, and track the running ones', async () => {
    const metrics = createEncoderMetrics();
    const job = { id: 1 } as unknown as Extract<WorkerEvent, { kind: 'started' }>['job'];
    const events: WorkerEvent[] = [
      { kind: 'started', job },
      { kind: 'started', job },
      { kind: 'started', job },
      { kind: 'done', job, manifest: {} as never, seconds: 42, requeued: false },
      { kind: 'failed', job, error: 'x', final: false },
      { kind: 'started', job },
      { kind: 'error', error: 'database down' },
    ];
    for (const event of events) metrics.onEvent(event);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^encoder_jobs_total\{outcome="done"\} 1$/m);
    expect(text).toMatch(/^encoder_jobs_total\{outcome="retry"\} 1$/m);
    expect(text).toMatch(/^encoder_jobs_total\{outcome="failed"\} 0$/m);
    expect(text).toMatch(/^encoder_jobs_running 2$/m);
    expect(text).toMatch(/^encoder_job_duration_seconds_sum 42$/m);
    expect(text).toMatch(/^encoder_queue_errors_total 1$/m);
    expect(text).toContain('encoder_process_cpu_seconds_total');
  });
});
