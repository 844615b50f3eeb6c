import type Router from '@koa/router';
import type { IngestAnswer, IngestList } from '@media-site/contracts/admin-content';
import type { Context } from 'koa';
import { ingestRun, INGEST_FOLDER_MAX, listIngestFolders, recentIngests, requestIngest } from '@media-site/db/admin';
import { z } from 'zod';
import { NotFoundError } from '../../../errors';
import type { AccountDeps } from '../../../account/deps';
import { readBody } from '../../../security/body';
import { parseBody } from '../shared/parse';
import { parseParam } from '../shared/params';
import { requireAdmin, signedInAdmin } from './session';

// Ingest from the console: the folders under INGEST_ROOT, a queued run, and its progress.
// The bff never ingests itself: it checks the folder name and queues a row in `ingest_runs`; the
// operator's ingest worker (`catalog ingest-worker`, which has ffmpeg and the media volume) runs the
// same ingestFolder as `catalog ingest` and writes the progress the console polls (GET .../:id).
// Polling a row rather than server-sent events: any bff instance answers it, and nothing is held open.

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;

export const ingestBody = z.strictObject({
  folder: z.string().max(INGEST_FOLDER_MAX, `folder: at most ${INGEST_FOLDER_MAX} characters`),
});

const RECENT = 10;

/** An ingest run's number in the path. */
export const ingestRunId = z
  .string()
  .regex(/^\d{1,9}$/, 'not an ingest run number')
  .transform(Number);

const runId = (ctx: Context): number => parseParam(ingestRunId, ctx.params.id);

/** GET /api/admin/ingests, POST /api/admin/ingests, GET /api/admin/ingests/:id (owner and moderator: `content`). */
export function adminIngestRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  const root = deps.settings.admin.ingestRoot;
  router
    .get('/admin/ingests', origin, requireAdmin(deps, 'content'), async (ctx) => {
      ctx.body = { folders: await listIngestFolders(root), runs: await recentIngests(deps.knex, RECENT) } satisfies IngestList;
    })
    .post('/admin/ingests', origin, requireAdmin(deps, 'content'), readBody(), async (ctx) => {
      const { folder } = parseBody(ingestBody, ctx);
      const run = await requestIngest(deps.knex, root, folder, { actor: signedInAdmin(ctx).name, address: ctx.ip, now: deps.now() });
      ctx.status = 202;
      ctx.body = { run } satisfies IngestAnswer;
    })
    .get('/admin/ingests/:id', origin, requireAdmin(deps, 'content'), async (ctx) => {
      const run = await ingestRun(deps.knex, runId(ctx));
      if (!run) throw new NotFoundError('no such ingest run');
      ctx.body = { run } satisfies IngestAnswer;
    });
}
