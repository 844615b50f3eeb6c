import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createKnex } from '@media-site/db';
import { dashboard, totpCode, type Dashboard } from '@media-site/db/admin';
import { recordBackupRun } from '@media-site/db/backup';
import { runOpsCaptured } from '@media-site/ops/cli';
import { MAINTENANCE_TEXT } from '@media-site/contracts/site-status';
import { screenshotDir, signInAsDemo, startSite, type Site } from './browser';

// The console's dashboard through the real front door. Known rows go into the stack's
// database on top of whatever it holds already (read first through the same db service), and the
// owner must see the sums; support and a moderator see only their parts.
const SIZES = { desktop: { width: 1280, height: 800 }, tablet: { width: 820, height: 1180 } } as const;
type Size = keyof typeof SIZES;
const DAY = 86_400_000;
const ALL = { members: true, payments: true, encode: true, reports: true, operations: true };

const usd = (cents: number) => new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' }).format(cents / 100);

async function seed(knex: Knex, now: number): Promise<void> {
  // The last good backup five hours ago.
  const backupAt = now - 5 * 3_600_000;
  await recordBackupRun(knex, {
    status: 'ok',
    setId: 'e2e-set',
    host: 'e2e',
    startedAt: backupAt - 60_000,
    finishedAt: backupAt,
    rows: 1,
    files: 1418,
    bytes: 135_266_304,
    copiedBytes: 0,
  });
  // Today, however early in the UTC day the test runs.
  const today = Math.max(now - 60_000, Math.floor(now / DAY) * DAY);
  for (const username of ['dash_a', 'dash_b', 'dash_c']) {
    await knex('members').insert({ username, password_hash: 'x', email: `${username}@example.com`, created_at: today });
    const { id } = await knex('members').where({ username }).first('id');
    await knex('subscriptions').insert({
      member_id: id,
      kind: 'membership',
      status: 'active',
      paid_until: now + 30 * DAY,
      created_at: today,
      updated_at: today,
    });
  }
  const payment = (token: string, kind: string, amount: string) => ({
    payment_token: token,
    kind,
    username: 'dash_a',
    email: 'dash_a@example.com',
    amount,
    currency_code: 840,
    status: 'approved',
    created_at: today,
    updated_at: today,
  });
  await knex('payment_attempts').insert([
    { ...payment('dash-1', 'membership', '9.99'), provider_subscription_id: 'dash-sub' },
    payment('dash-2', 'membership', '9.99'),
    payment('dash-3', 'vod', '24.50'),
  ]);
  await knex('webhook_events').insert([
    { transaction_id: 'dash-t1', event_type: 'Cancellation', payload: '{}', received_at: today },
    { transaction_id: 'dash-t2', event_type: 'Chargeback', payload: '{}', received_at: today },
    {
      transaction_id: 'dash-t3',
      event_type: 'RenewalSuccess',
      subscription_id: 'dash-sub',
      payload: '{"billedAmount":"12.50"}',
      received_at: today,
    },
  ]);
  const job = (path: string, status: string, error: string | null) => ({
    content_type: 'video',
    path,
    source_sig: 'e2e',
    status,
    attempts: 1,
    error,
    created_at: now,
    updated_at: now,
  });
  await knex('media_jobs').insert([job('dash-failed', 'failed', 'e2e: ffmpeg exited with code 1'), job('dash-running', 'running', null)]);
  await knex('content_reports').insert({
    reference: 'DASHE2E01',
    content_url: '/video/dash',
    reason: 'other',
    details: 'e2e',
    created_at: now - 3 * DAY,
  });
  await knex('purge_outbox').insert({
    event: 'takedown',
    prefixes: '["/video/dash"]',
    created_at: now - 2 * 3_600_000,
    attempts: 4,
    next_attempt_at: now + 60_000,
    last_error: 'e2e: the purge hook answered 502',
  });
}

describe('the console dashboard', () => {
  let site: Site;
  let before: Dashboard;
  const secrets = new Map<string, string>();
  const lastStep = new Map<string, number>();

  function freshCode(name: string): string {
    const step = Math.max(Math.floor(Date.now() / 30_000), (lastStep.get(name) ?? -1) + 1);
    lastStep.set(name, step);
    return totpCode(secrets.get(name)!, step * 30_000);
  }

  /** Signs in and opens the dashboard: the owner's first screen, one link away for the other roles. */
  async function signIn(name: string, size: Size): Promise<{ page: Page; errors: string[] }> {
    const opened = await site.open({ ...SIZES[size], ageConfirmed: false });
    await opened.page.goto('/admin');
    await opened.page.getByLabel('Name').fill(name);
    await opened.page.getByLabel('Code from your authenticator app').fill(freshCode(name));
    await opened.page.getByRole('button', { name: 'Sign in' }).click();
    await opened.page.getByText(`Signed in as ${name}`).waitFor();
    const first = await opened.page.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current');
    expect(first === 'page', `${name}'s first screen`).toBe(name.startsWith('dash_owner'));
    if (first !== 'page') await opened.page.getByRole('link', { name: 'Dashboard' }).click();
    await opened.page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    return opened;
  }

  const shot = (page: Page, name: string, size: Size) =>
    page.screenshot({ path: join(screenshotDir, `admin-dashboard-${name}-${SIZES[size].width}.png`), fullPage: true });

  /** A figure's value by its name (the dl beside each chart). */
  const figure = (page: Page, name: string | RegExp) =>
    page
      .locator('.admin-figure')
      .filter({ has: page.locator('dt', { hasText: name }) })
      .locator('dd');

  beforeAll(async () => {
    site = await startSite({ demoMember: true });
    const knex = createKnex(site.stack.databaseUrl);
    try {
      for (const [name, role] of [
        ['dash_owner', 'owner'],
        ['dash_owner2', 'owner'],
        ['dash_support', 'support'],
        ['dash_mod', 'moderator'],
      ]) {
        const added = await runOpsCaptured(['admin', 'add', name!, '--role', role!], { env: { USER: 'e2e' }, knex });
        expect(added.code, added.err).toBe(0);
        secrets.set(name!, /secret: (\S+)/.exec(added.out)?.[1] ?? '');
      }
      const now = Date.now();
      before = await dashboard(knex, { days: 30, now, sections: ALL });
      await seed(knex, now);
    } finally {
      await knex.destroy();
    }
  }, 180_000);
  afterAll(() => site?.stop());

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`the owner sees the figures the seeded rows imply, with charts and tables (${size})`, async () => {
      const { page, errors } = await signIn('dash_owner', size);
      const was = before.members!.at(-1)!;
      const wasUsd = before.revenue!.find((r) => r.currencyCode === 840);
      await figure(page, 'Active memberships now')
        .getByText(String(was.active + 3), { exact: true })
        .waitFor();
      expect(await figure(page, /^New in 30 days$/).textContent()).toBe(String(before.members!.reduce((n, d) => n + d.new, 0) + 3));
      expect(await figure(page, /^Cancelled in 30 days$/).textContent()).toBe(
        String(before.members!.reduce((n, d) => n + d.cancelled, 0) + 1),
      );
      expect(await figure(page, /^Charged back in 30 days$/).textContent()).toBe(
        String(before.members!.reduce((n, d) => n + d.chargedBack, 0) + 1),
      );
      expect(await figure(page, 'Sign-ups (USD)').textContent()).toBe(usd((wasUsd?.totalMembership ?? 0) + 1998));
      expect(await figure(page, 'Renewals (USD)').textContent()).toBe(usd((wasUsd?.totalRenewals ?? 0) + 1250));
      expect(await figure(page, 'VODs (USD)').textContent()).toBe(usd((wasUsd?.totalVod ?? 0) + 2450));
      expect(await figure(page, 'Overdue').textContent()).toBe(String(before.reports!.overdue + 1));
      expect(await figure(page, /^Failed$/).textContent()).toBe(String(before.encode!.failed + 1));
      expect(await figure(page, 'Running').textContent()).toBe(String(before.encode!.running + 1));
      expect(await figure(page, 'Pending').textContent()).toBe(String(before.purge!.pending + 1));
      if (before.purge!.oldest === null)
        await page.getByText(/Oldest: a takedown queued .* tried 4 times; last error: e2e: the purge hook answered 502\./).waitFor();
      await page.getByRole('cell', { name: 'e2e: ffmpeg exited with code 1' }).waitFor();
      await page.getByText(/^Last good backup 5 hours ago \(.*\): set e2e-set, 1418 media files, 129\.0 MiB\./).waitFor();
      // Each chart is a named picture with its figures as a table beside it.
      expect(
        await page
          .getByRole('img', { name: /^Members per day over 30 days/ })
          .locator('canvas')
          .count(),
      ).toBe(1);
      expect(
        await page
          .getByRole('img', { name: /^Revenue per day in USD/ })
          .locator('canvas')
          .count(),
      ).toBe(1);
      await page.getByText('Members per day, as a table').click();
      const todayRow = page.getByRole('table', { name: 'Members per day (UTC)' }).getByRole('row').last();
      expect(await todayRow.getByRole('cell').allTextContents()).toEqual([
        before.days.at(-1),
        String(was.active + 3),
        String(was.new + 3),
        String(was.cancelled + 1),
        String(was.chargedBack + 1),
      ]);
      await page.getByText('Revenue per day in USD, as a table').click();
      // The site's own media service polls both lists and names itself: listed, and current.
      const lists = page.getByRole('table', { name: 'The stalest first' });
      for (const list of ['revocations', 'takedowns'])
        expect(await lists.getByRole('row').filter({ hasText: list }).getByRole('cell').last().textContent(), list).toBe('Current');
      await shot(page, 'owner', size);
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      expect(errors.filter((e) => !e.includes('status of 401'))).toEqual([]);
    });
  }

  it('a window outside 1..90 days is refused with a message, and a failing server is said so', async () => {
    // Another owner: a third TOTP sign-in of one admin within a step would need a code from too far ahead.
    const { page } = await signIn('dash_owner2', 'desktop');
    const days = page.getByLabel('Days shown (1 to 90)');
    await days.fill('91');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('alert').getByText('days: at most 90').waitFor();
    await shot(page, 'too-many-days', 'desktop');
    await days.fill('abc');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('alert').getByText('days: a whole number from 1 to 90').waitFor();
    await days.fill('7');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText(/^The 7 days /).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    // The bff answering 503 (a read past its deadline): the API's own words reach the operator.
    await page.route('**/api/admin/dashboard?*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'unavailable', message: 'The server is busy: try again in a moment.' } }),
      }),
    );
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('alert').getByText('The server is busy: try again in a moment.').waitFor();
    await shot(page, 'server-error', 'desktop');
  });

  it('support sees members and payments, never the queues, purges or errors; the API leaves them out', async () => {
    const { page } = await signIn('dash_support', 'tablet');
    await page.getByRole('heading', { name: 'Members', level: 2 }).waitFor();
    await page.getByRole('heading', { name: 'Revenue', level: 2 }).waitFor();
    for (const hidden of ['Reports', 'Encode queue', 'CDN purges', 'Recent errors', "Media services' lists", 'Backups', 'Maintenance mode'])
      expect(await page.getByRole('heading', { name: hidden, level: 2 }).count(), hidden).toBe(0);
    const body = await page.evaluate(async () => (await fetch('/api/admin/dashboard?days=7')).json());
    expect(Object.keys(body as object).sort()).toEqual(['days', 'members', 'now', 'revenue', 'sections']);
    await shot(page, 'support', 'tablet');
  });

  it('a moderator sees the encode queue and reports due, not members or money', async () => {
    const { page } = await signIn('dash_mod', 'desktop');
    await page.getByRole('heading', { name: 'Encode queue', level: 2 }).waitFor();
    await page.getByRole('heading', { name: 'Reports', level: 2 }).waitFor();
    for (const hidden of ['Members', 'Revenue', 'CDN purges', 'Recent errors', 'Backups', 'Maintenance mode'])
      expect(await page.getByRole('heading', { name: hidden, level: 2 }).count(), hidden).toBe(0);
    // No figures per day: no window to set.
    await page.getByText(/^Read at /).waitFor();
    expect(await page.getByLabel('Days shown (1 to 90)').count()).toBe(0);
    await shot(page, 'moderator', 'desktop');
  });

  it('the owner turns maintenance on: a member sees the banner (phone), a password change is paused in words, browsing goes on; then off', async () => {
    const { page, errors } = await signIn('dash_owner2', 'desktop');
    await page.getByLabel('Message for members (optional)').fill('Back by 14:00 UTC.');
    await page.getByRole('button', { name: 'Turn maintenance on' }).click();
    await page.getByText('Maintenance mode is on').waitFor();
    await page.getByRole('button', { name: 'Turn maintenance off' }).waitFor();
    await shot(page, 'maintenance-on', 'desktop');

    const words = `${MAINTENANCE_TEXT} Back by 14:00 UTC.`;
    const member = await site.open({ width: 390, height: 844 });
    await signInAsDemo(member.page);
    const banner = member.page.getByRole('status').filter({ hasText: words });
    // Each bff reads the switch at most every 2 s: ask again until this one has.
    await expect
      .poll(
        async () => {
          await member.page.goto('/account');
          await member.page.getByRole('button', { name: 'Change password' }).waitFor();
          return banner.count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    await member.page.getByLabel('Current password', { exact: true }).fill('not the password');
    await member.page.getByLabel('New password (8 to 64 characters)', { exact: true }).fill('another horse battery');
    await member.page.getByRole('button', { name: 'Change password' }).click();
    await member.page.locator('form .status-error', { hasText: words }).waitFor();
    await member.page.screenshot({ path: join(screenshotDir, 'maintenance-account-390.png'), fullPage: true });
    await member.page.goto('/videos');
    await member.page.locator('main a[href^="/video/"]').first().waitFor();
    await banner.waitFor();

    await page.getByRole('button', { name: 'Turn maintenance off' }).click();
    await page.getByText('Maintenance mode is off.').waitFor();
    await expect
      .poll(
        async () => {
          await member.page.reload();
          await member.page.locator('main a[href^="/video/"]').first().waitFor();
          return member.page.getByText(MAINTENANCE_TEXT).count();
        },
        { timeout: 20_000 },
      )
      .toBe(0);
    // The browser logs the 503 asked for above; nothing else may go wrong.
    expect(member.errors.filter((e) => !e.includes('status of 503'))).toEqual([]);
    // The console's first look at its session, before the sign-in, is a 401.
    expect(errors.filter((e) => !e.includes('status of 401'))).toEqual([]);
  });
});
