import type Router from '@koa/router';
import type { DashboardData } from '@media-site/contracts/admin';
import type { Context } from 'koa';
import { dashboard, dashboardDays, roleMay, type AdminRole, type DashboardSections } from '@media-site/db/admin';
import { z } from 'zod';
import type { AccountDeps } from '../../../account/deps';
import { parseQuery } from '../shared/parse';
import { requireAdmin, signedInAdmin } from './session';

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;

/** `days` is read by the db's rule (dashboardDays), the same as the CLI's `--days`. */
export const dashboardQuery = z.strictObject({
  days: z.string('give one whole number from 1 to 90').optional(),
});

/** What each role sees (roles.ts): support the members and payments, moderators the encode queue and reports. */
export const dashboardSections = (role: AdminRole): DashboardSections => ({
  members: roleMay(role, 'members'),
  payments: roleMay(role, 'payments'),
  encode: roleMay(role, 'content'),
  reports: roleMay(role, 'reports'),
  operations: roleMay(role, 'operations'),
});

/** GET /api/admin/dashboard?days=N (1..90, default 30; the CLI's `dashboard` reads the same service): the owner's first screen, every role's with its sections by role. */
export function adminDashboardRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  router.get('/admin/dashboard', origin, requireAdmin(deps), async (ctx) => {
    const days = dashboardDays(parseQuery(dashboardQuery, ctx).days);
    const sections = dashboardSections(signedInAdmin(ctx).role);
    ctx.body = {
      sections,
      ...(await dashboard(deps.knex, { days, now: deps.now(), sections, holidays: deps.settings.reportHolidays })),
    } satisfies DashboardData;
  });
}
