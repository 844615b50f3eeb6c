// The queues of background work by name, without zod: the console imports these values, and its
// bundle carries no schema library (admin-queues.ts has the answers' schemas).

export const QUEUE_NAMES = ['encode', 'ingest', 'mail', 'purge'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** What each queue is, in the console's words. */
export const QUEUE_TITLES: Record<QueueName, string> = {
  encode: 'Encode',
  ingest: 'Ingest',
  mail: 'Mail',
  purge: 'CDN purges',
};

/** A job's state as the screen groups it: `retrying` waits for its next try after a failed one. */
export const QUEUE_JOB_STATES = ['queued', 'retrying', 'running', 'failed', 'done'] as const;
export type QueueJobState = (typeof QUEUE_JOB_STATES)[number];

/** How many jobs of each list a page shows. */
export const QUEUE_LIST_MAX = 50;
