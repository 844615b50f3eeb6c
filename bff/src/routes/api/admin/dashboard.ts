import type Router from '@koa/router';
import type { Context } from 'koa';
import { dashboard, DASHBOARD_DAYS_MAX, DASHBOARD_DAYS_MIN, roleMay, type AdminRole, type DashboardSections } from '@media-site/db/admin';
import { z } from 'zod';
import type { AccountDeps } from '../../../account/deps';
import { parseQuery } from '../shared/parse';
import { requireAdmin, signedInAdmin } from './session';

type Guard = (ctx: Context, next: () => Promise<unknown>) => Promise<void>;

const WHOLE = `a whole number from ${DASHBOARD_DAYS_MIN} to ${DASHBOARD_DAYS_MAX}`;

/** `days`: at most two digits, read before any number is made of it. */
export const dashboardQuery = z.strictObject({
  days: z
    .string(WHOLE)
    .max(2, WHOLE)
    .regex(/^\d+$/, WHOLE)
    .transform(Number)
    .pipe(z.number().min(DASHBOARD_DAYS_MIN, `at least ${DASHBOARD_DAYS_MIN}`).max(DASHBOARD_DAYS_MAX, `at most ${DASHBOARD_DAYS_MAX}`))
    .default(30),
});

/** What each role sees (roles.ts): support the members and payments, moderators the encode queue and reports. */
export const dashboardSections = (role: AdminRole): DashboardSections => ({
  members: roleMay(role, 'members'),
  payments: roleMay(role, 'payments'),
  encode: roleMay(role, 'content'),
  reports: roleMay(role, 'reports'),
  operations: roleMay(role, 'operations'),
});

/** GET /api/admin/dashboard?days=N (1..90, default 30): every role's first screen, its sections by role. */
export function adminDashboardRoutes(router: Router, deps: AccountDeps, origin: Guard): void {
  router.get('/admin/dashboard', origin, requireAdmin(deps), async (ctx) => {
    const { days } = parseQuery(dashboardQuery, ctx);
    const sections = dashboardSections(signedInAdmin(ctx).role);
    ctx.body = { sections, ...(await dashboard(deps.knex, { days, now: deps.now(), sections, holidays: deps.settings.reportHolidays })) };
  });
}
