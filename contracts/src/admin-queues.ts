import { z } from 'zod';
import { QUEUE_JOB_STATES, QUEUE_NAMES } from './queue-names';

/**
 * The console's queue screen and `ops queues` (db/src/queues): the four queues of background work,
 * what each holds and what an operator may do to it. Shared as admin-content.ts's answers are.
 */

export { QUEUE_JOB_STATES, QUEUE_LIST_MAX, QUEUE_NAMES, QUEUE_TITLES, type QueueJobState, type QueueName } from './queue-names';
export const queueName = z.enum(QUEUE_NAMES);

export const queueJob = z.strictObject({
  id: z.number().int(),
  /** What the job works on: `video/clip-a1`, a folder, a mail's template and key, a purge's prefixes. */
  what: z.string(),
  state: z.enum(QUEUE_JOB_STATES),
  attempts: z.number().int(),
  /** 0..1 while running, when the queue knows it. */
  progress: z.number().nullable(),
  /** The worker holding it (host:pid), while running, when the queue records it. */
  worker: z.string().nullable(),
  /** Unix ms: when it was queued (waiting), started (running) or ended (failed). */
  since: z.number(),
  /** The last failure's reason. */
  reason: z.string().nullable(),
  /** Unix ms of the next try (retrying). */
  nextTryAt: z.number().nullable(),
});
export type QueueJob = z.infer<typeof queueJob>;

export const queueCounts = z.strictObject({
  queued: z.number().int(),
  retrying: z.number().int(),
  running: z.number().int(),
  failed: z.number().int(),
  done: z.number().int(),
});
export type QueueCounts = z.infer<typeof queueCounts>;

export const queueView = z.strictObject({
  name: queueName,
  /** Set while the queue is paused: its workers claim nothing new (running jobs finish). */
  paused: z.strictObject({ by: z.string(), at: z.number() }).nullable(),
  counts: queueCounts,
  running: z.array(queueJob),
  /** Oldest first: queued and retrying. */
  waiting: z.array(queueJob),
  /** Newest first. */
  failed: z.array(queueJob),
  /** What this queue allows: a CDN purge is never cancelled or paused (a takedown must reach the CDN). */
  can: z.strictObject({ cancel: z.boolean(), pause: z.boolean() }),
});
export type QueueView = z.infer<typeof queueView>;

export const queuesPage = z.strictObject({ now: z.number(), queues: z.array(queueView) });
export type QueuesPage = z.infer<typeof queuesPage>;

/** What an action changed: how many jobs (a retry of all failed may move many, or none). */
export const queueActionAnswer = z.strictObject({ queue: queueName, changed: z.number().int() });
export type QueueActionAnswer = z.infer<typeof queueActionAnswer>;
