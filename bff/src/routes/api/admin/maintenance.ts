import type Router from '@koa/router';
import type { Context } from 'koa';
import { MAINTENANCE_MESSAGE_MAX, type SiteStatus } from '@media-site/contracts/site-status';
import { maintenanceState, setMaintenance } from '@media-site/db/queues';
import { z } from 'zod';
import type { AccountDeps } from '../../../account/deps';
import { readBody } from '../../../security/body';
import { parseBody } from '../shared/parse';
import { requireAdmin, signedInAdmin } from './session';

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;

export const maintenanceBody = z.strictObject({
  on: z.boolean('true or false'),
  message: z.string().max(MAINTENANCE_MESSAGE_MAX, `at most ${MAINTENANCE_MESSAGE_MAX} characters`).optional(),
});

/** POST /api/admin/maintenance (owner: `operations`): maintenance mode on, with a message for members, or off; audited. */
export function adminMaintenanceRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  router.post('/admin/maintenance', origin, requireAdmin(deps, 'operations'), readBody(), async (ctx) => {
    const { on, message } = parseBody(maintenanceBody, ctx);
    await setMaintenance(deps.knex, on, { actor: signedInAdmin(ctx).name, address: ctx.ip, now: deps.now(), message });
    const state = await maintenanceState(deps.knex);
    ctx.body = { maintenance: state && { since: state.since, message: state.message } } satisfies SiteStatus;
  });
}
