import type Router from '@koa/router';
import type { Context } from 'koa';
import { QUEUE_NAMES, type QueueActionAnswer, type QueuesPage } from '@media-site/contracts/admin-queues';
import { cancelQueueJob, pauseQueue, queueViews, retryQueueJob } from '@media-site/db/queues';
import { z } from 'zod';
import type { AccountDeps } from '../../../account/deps';
import { readBody } from '../../../security/body';
import { parseParam } from '../shared/params';
import { requireAdmin, signedInAdmin } from './session';

// The console's Queues screen (owner and moderator): the four queues of background work, and the
// verbs on them, each audited by db/src/queues. `ops queues` and `ops queue` are the same on the CLI.

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;

/** The queue's name in the path. */
export const queueParam = z.enum(QUEUE_NAMES, 'not a queue: encode, ingest, mail or purge');
/** A job's number in the path. */
export const queueJobId = z
  .string()
  .regex(/^\d{1,9}$/, 'not a job number')
  .transform(Number);

const queueOf = (ctx: Context) => parseParam(queueParam, ctx.params.queue);
const jobOf = (ctx: Context) => parseParam(queueJobId, ctx.params.id);

/** GET /api/admin/queues; POST .../:queue/pause|resume|retry-failed and .../:queue/jobs/:id/retry|cancel. */
export function adminQueueRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  const may = [origin, requireAdmin(deps, 'queues')] as const;
  const by = (ctx: Context) => ({ actor: signedInAdmin(ctx).name, address: ctx.ip, now: deps.now() });
  const answer = (ctx: Context, queue: QueueActionAnswer['queue'], changed: number) => {
    ctx.body = { queue, changed } satisfies QueueActionAnswer;
  };
  router
    .get('/admin/queues', ...may, async (ctx) => {
      const now = deps.now();
      ctx.body = { now, queues: await queueViews(deps.knex, now) } satisfies QueuesPage;
    })
    .post('/admin/queues/:queue/pause', ...may, readBody(), async (ctx) => {
      const queue = queueOf(ctx);
      answer(ctx, queue, await pauseQueue(deps.knex, queue, true, by(ctx)));
    })
    .post('/admin/queues/:queue/resume', ...may, readBody(), async (ctx) => {
      const queue = queueOf(ctx);
      answer(ctx, queue, await pauseQueue(deps.knex, queue, false, by(ctx)));
    })
    .post('/admin/queues/:queue/retry-failed', ...may, readBody(), async (ctx) => {
      const queue = queueOf(ctx);
      answer(ctx, queue, await retryQueueJob(deps.knex, queue, 'all', by(ctx)));
    })
    .post('/admin/queues/:queue/jobs/:id/retry', ...may, readBody(), async (ctx) => {
      const queue = queueOf(ctx);
      answer(ctx, queue, await retryQueueJob(deps.knex, queue, jobOf(ctx), by(ctx)));
    })
    .post('/admin/queues/:queue/jobs/:id/cancel', ...may, readBody(), async (ctx) => {
      const queue = queueOf(ctx);
      answer(ctx, queue, await cancelQueueJob(deps.knex, queue, jobOf(ctx), by(ctx)));
    });
}
