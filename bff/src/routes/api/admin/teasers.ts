import type Router from '@koa/router';
import type { TeaseAnswer } from '@media-site/contracts/admin-content';
import type { Context } from 'koa';
import { contentRefOf, scheduledTeasers, tease } from '@media-site/db/content';
import { z } from 'zod';
import { BadRequestError } from '../../../errors';
import type { AccountDeps } from '../../../account/deps';
import { readBody } from '../../../security/body';
import { parseBody } from '../shared/parse';
import { requireAdmin, signedInAdmin } from './session';

// "Coming soon" from the console: the scheduled items and the teaser toggle, through the
// same db service as `catalog tease` (which appends the audit row and bumps the generation).

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;

export const teaseBody = z.strictObject({
  path: z.string().trim().min(1, 'give path, the site path of the item').max(500, 'path: at most 500 characters'),
  teased: z.boolean({ error: 'teased: true or false' }),
});

/** GET /api/admin/scheduled (every role may read content) and POST /api/admin/teasers (owner and moderator). */
export function adminTeaserRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  router
    .get('/admin/scheduled', origin, requireAdmin(deps, 'content:read'), async (ctx) => {
      ctx.body = { items: await scheduledTeasers(deps.knex, deps.now()) };
    })
    .post('/admin/teasers', origin, requireAdmin(deps, 'content'), readBody(), async (ctx) => {
      const { path, teased } = parseBody(teaseBody, ctx);
      const ref = contentRefOf(path);
      if (!ref) throw new BadRequestError('path: not a photo set, video or VOD (use /photos/<path>, /video/<path> or /vod/<path>)');
      const { generation, publishAt } = await tease(deps.knex, ref, teased, {
        actor: signedInAdmin(ctx).name,
        address: ctx.ip,
        now: deps.now(),
      });
      ctx.body = { type: ref.type, path: ref.path, teased, publishAt, generation } satisfies TeaseAnswer;
    });
}
