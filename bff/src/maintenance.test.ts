import { expect, it } from 'vitest';
import { runOpsCaptured } from '@media-site/ops/cli';
import { MAINTENANCE_TEXT } from '@media-site/contracts/site-status';
import { ORIGIN, startAccountKit } from './test/account-kit';
import { consoleSession } from './test/console-session';
import { describeWithKit } from './test/suite';
import { PAUSED_IN_MAINTENANCE } from './maintenance';

// Maintenance mode through the bff: the paused changes answer 503 with the banner's words and a
// Retry-After, GET /api/site says so, everything else goes on; the owner switches it from the console.
describeWithKit(
  'maintenance mode',
  (backend) => startAccountKit(backend, { RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: '1000' }),
  (kit) => {
    const ops = (...argv: string[]) => runOpsCaptured(argv, { env: { USER: 'tester' }, knex: kit().db.knex, now: () => Date.now() });
    const site = async () => (await kit().request.get('/api/site')).body as { maintenance: { message: string } | null };
    const post = (path: string, body: object = {}, cookie = '') =>
      kit().request.post(path).set({ Origin: ORIGIN, Cookie: cookie }).send(body);

    it('on: joining, buying and account changes answer 503 with the words and Retry-After; sign-in and reports go on; off: back', async () => {
      expect(await site()).toEqual({ maintenance: null });
      expect((await ops('maintenance', 'on', '--message', 'Back by 14:00 UTC.')).out).toMatch(
        /^maintenance: ON since .* \(by cli:tester\): Back by 14:00 UTC\.$/,
      );
      await expect.poll(site, { timeout: 10_000 }).toEqual({ maintenance: { since: expect.any(Number), message: 'Back by 14:00 UTC.' } });
      for (const path of PAUSED_IN_MAINTENANCE) {
        const res = await post(path, {});
        expect([path, res.status, res.headers['retry-after'], res.body.error]).toEqual([
          path,
          503,
          '300',
          { code: 'unavailable', message: `${MAINTENANCE_TEXT} Back by 14:00 UTC.` },
        ]);
      }
      // Not paused: a sign-in (refused here for the password, not the mode) and a report.
      expect((await post('/api/login', { username: 'nobody_here', password: 'wrong one' })).status).toBe(401);
      expect((await kit().request.get('/api/updates/1')).status).toBe(200);
      expect((await ops('maintenance', 'off')).out).toBe('maintenance: off');
      await expect.poll(site, { timeout: 10_000 }).toEqual({ maintenance: null });
      expect((await post('/api/get_ccbill_token', {})).status).toBe(400);
    });

    it('the owner switches it from the console (audited); a moderator may not; a bad message is a 400', async () => {
      const owner = await consoleSession(kit(), 'maint_owner', 'owner');
      const mod = await consoleSession(kit(), 'maint_mod', 'moderator');
      const on = await post('/api/admin/maintenance', { on: true, message: 'Restoring.' }, owner);
      expect(on.body).toEqual({ maintenance: { since: expect.any(Number), message: 'Restoring.' } });
      expect((await post('/api/admin/maintenance', { on: false }, mod)).status).toBe(403);
      const long = await post('/api/admin/maintenance', { on: true, message: 'x'.repeat(301) }, owner);
      expect([long.status, long.body.error.message]).toEqual([400, 'message: at most 300 characters']);
      const control = await post('/api/admin/maintenance', { on: true, message: 'two\nlines' }, owner);
      expect([control.status, control.body.error.message]).toEqual([400, 'message: one line of text, no control characters']);
      expect((await post('/api/admin/maintenance', { on: 'yes' }, owner)).status).toBe(400);
      expect((await post('/api/admin/maintenance', { on: false }, owner)).body).toEqual({ maintenance: null });
      const audit = await kit().db.knex('admin_audit').where('action', 'like', 'site.maintenance%').orderBy('id').select('actor', 'action');
      expect(audit.slice(-2)).toEqual([
        { actor: 'maint_owner', action: 'site.maintenance.on' },
        { actor: 'maint_owner', action: 'site.maintenance.off' },
      ]);
    });
  },
);
