import type Router from '@koa/router';
import type { AdminMe, AuditPage, MemberSearch, MemberSessionsEnded } from '@media-site/contracts/admin';
import { Readable } from 'node:stream';
import { appendAudit, deleteAdminSession, exportAuditCsv, readAuditPage } from '@media-site/db/admin';
import { disableMember, searchMembers } from '@media-site/db/members';
import { DISABLE_REASON_MAX } from '@media-site/contracts/member-rules';
import { z } from 'zod';
import type { AccountDeps } from '../../../account/deps';
import { readBody } from '../../../security/body';
import { parseBody, parseQuery } from '../shared/parse';
import { auditQuery, memberSearchQuery } from './schema';
import { adminCookieValue, adminOrigin, clearAdminCookie, reader, requireAdmin, signedInAdmin } from './session';
import { adminCredentialRoutes } from './credentials';
import { adminChangeRoutes, usernameParam } from './changes';
import { reportDeskRoutes } from './report-desk';
import { adminAccountRoutes } from './admin-accounts';
import { adminMemberRoutes } from './members';
import { adminContentRoutes } from './content';
import { adminContentBulkRoutes } from './content-bulk';
import { adminDashboardRoutes } from './dashboard';
import { adminIngestRoutes } from './ingests';
import { adminQueueRoutes } from './queues';
import { adminMaintenanceRoutes } from './maintenance';
import { adminTeaserRoutes } from './teasers';
import { adminPriceRoutes } from './prices';
import { adminStatsRoutes } from './stats';

export const disableBody = z.strictObject({ reason: z.string().trim().min(1, 'give a reason').max(DISABLE_REASON_MAX) });

/** The operator console's API: sign-in, the session, and one route per role. */
export function adminRoutes(router: Router, deps: AccountDeps): void {
  const origin = adminOrigin(deps);
  router
    .post('/admin/signout', origin, requireAdmin(deps), async (ctx) => {
      const admin = signedInAdmin(ctx);
      await deleteAdminSession(deps.knex, adminCookieValue(ctx));
      await appendAudit(deps.knex, { actor: admin.name, address: ctx.ip, action: 'admin.signout', target: admin.name, at: deps.now() });
      clearAdminCookie(ctx);
      ctx.status = 204;
    })
    .get('/admin/me', origin, requireAdmin(deps), (ctx) => {
      const { name, role } = signedInAdmin(ctx);
      ctx.body = { name, role } satisfies AdminMe;
    })
    .get('/admin/audit', origin, requireAdmin(deps, 'audit'), async (ctx) => {
      const { before, limit } = parseQuery(auditQuery, ctx);
      const entries = await readAuditPage(deps.knex, { before, limit }, reader(ctx, deps));
      ctx.body = { entries, next: entries.length === limit ? entries[entries.length - 1]!.id : null } satisfies AuditPage;
    })
    .get('/admin/audit.csv', origin, requireAdmin(deps, 'audit'), async (ctx) => {
      const csv = await exportAuditCsv(deps.knex, reader(ctx, deps));
      ctx.type = 'text/csv; charset=utf-8';
      ctx.attachment('audit.csv');
      ctx.body = Readable.from(csv);
    })
    .get('/admin/members', origin, requireAdmin(deps, 'members'), async (ctx) => {
      const { q } = parseQuery(memberSearchQuery, ctx);
      ctx.body = { members: await searchMembers(deps.knex, q, reader(ctx, deps)) } satisfies MemberSearch;
    })
    .post('/admin/members/:username/disable', origin, requireAdmin(deps, 'members'), readBody(), async (ctx) => {
      const username = usernameParam(ctx);
      const { reason } = parseBody(disableBody, ctx);
      const by = { actor: signedInAdmin(ctx).name, address: ctx.ip };
      const { sessions } = await disableMember(deps.knex, username, reason, deps.now(), by);
      ctx.body = { username, sessionsEnded: sessions } satisfies MemberSessionsEnded;
    });
  adminCredentialRoutes(router, deps, origin);
  adminChangeRoutes(router, deps, origin);
  reportDeskRoutes(router, deps, origin);
  adminAccountRoutes(router, deps, origin);
  adminMemberRoutes(router, deps, origin);
  adminContentRoutes(router, deps, origin);
  adminContentBulkRoutes(router, deps, origin);
  adminDashboardRoutes(router, deps, origin);
  adminIngestRoutes(router, deps, origin);
  adminQueueRoutes(router, deps, origin);
  adminMaintenanceRoutes(router, deps, origin);
  adminTeaserRoutes(router, deps, origin);
  adminPriceRoutes(router, deps, origin);
  adminStatsRoutes(router, deps, origin);
}
