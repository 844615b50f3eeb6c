import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { insertReport } from '@media-site/db/moderation';
import { runOpsCaptured } from '@media-site/ops/cli';
import { screenshotDir, startSite, type Site } from './browser';
import { AdminKit, confirmWithCode } from './admin-kit';

// The owner adds a moderator in the console, the moderator signs in with the secret the
// console showed, works the report queue (deadline order, SLA in words), acknowledges, takes the
// item down with one click and decides; the audit log shows each step. Through the real front door.
const SIZES = { desktop: { width: 1280, height: 800 }, tablet: { width: 820, height: 1180 } } as const;
type Size = keyof typeof SIZES;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('the console: admins and the report desk', () => {
  let site: Site;
  const kit = new AdminKit(() => site);
  let vodTitle = '';

  async function withKnex<T>(use: (knex: ReturnType<typeof createKnex>) => Promise<T>): Promise<T> {
    const knex = createKnex(site.stack.databaseUrl);
    try {
      return await use(knex);
    } finally {
      await knex.destroy();
    }
  }

  const signIn = (name: string, size: Size) => kit.signIn(name, size);

  const shot = (page: Page, name: string, size: Size) =>
    page.screenshot({ path: join(screenshotDir, `admin-${name}-${SIZES[size].width}.png`), fullPage: true });

  async function noAxeViolations(page: Page, name: string) {
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${name}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }

  const referencesShown = (page: Page) => page.getByRole('list', { name: 'Report queue' }).getByRole('heading').allTextContents();

  beforeAll(async () => {
    site = await startSite();
    await withKnex(async (knex) => {
      const added = await runOpsCaptured(['admin', 'add', 'chief', '--role', 'owner'], { env: { USER: 'e2e' }, knex });
      expect(added.code, added.err).toBe(0);
      kit.remember('chief', /secret: (\S+)/.exec(added.out)![1]!);
      vodTitle = String((await knex('vods').where({ path: site.seeded.vod }).first('updatename')).updatename);
      const now = Date.now();
      const report = (reference: string, contentUrl: string, age: number) =>
        insertReport(knex, {
          reference,
          contentUrl,
          reason: 'no_consent',
          details: 'I did not agree to this.',
          email: null,
          now: now - age,
        });
      // Listed out of order on purpose: the queue sorts them.
      await report('R-E2E0000003', `/photos/${site.seeded.photo}`, 0);
      await report('R-E2E0000001', `/vod/${site.seeded.vod}`, 30 * DAY);
      await report('R-E2E0000002', `/video/${site.seeded.video}`, 47 * HOUR);
      const acked = await runOpsCaptured(['reports', 'ack', 'R-E2E0000003', '--by', 'e2e'], { env: { USER: 'e2e' }, knex });
      expect(acked.code, acked.err).toBe(0);
    });
  }, 180_000);
  afterAll(() => site?.stop());

  it('the owner adds a moderator; the moderator signs in with the shown secret, works the queue, takes the item down and decides; all in the audit log', async () => {
    const owner = await signIn('chief', 'desktop');
    await owner.page.getByRole('link', { name: 'Admins' }).click();
    await owner.page.getByRole('heading', { name: 'Admins' }).waitFor();
    await owner.page.getByLabel("New admin's name").fill('mod_e2e');
    await owner.page.getByLabel('Role', { exact: true }).selectOption('moderator');
    await owner.page.getByRole('button', { name: 'Add admin' }).click();
    // A change to admins asks the owner to confirm it is them: a fresh code (the sign-in's works once).
    await shot(owner.page, 'admins-confirm', 'desktop');
    await confirmWithCode(owner.page, await kit.freshCode('chief'));
    await owner.page.getByRole('heading', { name: 'TOTP secret for mod_e2e: shown once' }).waitFor();
    const secret = (await owner.page.locator('code.admin-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await owner.page.getByLabel(/Enrolment URI/).inputValue()).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    kit.remember('mod_e2e', secret);
    await shot(owner.page, 'admins-added', 'desktop');
    await noAxeViolations(owner.page, 'admins');
    await owner.page.getByRole('button', { name: 'Done: hide the secret' }).click();
    expect(await owner.page.locator('code.admin-secret').count()).toBe(0);

    // Refused: the same name again, and the last owner disabling themselves. The API's words, shown.
    await owner.page.getByLabel("New admin's name").fill('mod_e2e');
    await owner.page.getByLabel('Role', { exact: true }).selectOption('support');
    await owner.page.getByRole('button', { name: 'Add admin' }).click();
    await owner.page.getByRole('alert').getByText('admin mod_e2e exists').waitFor();
    await owner.page.getByRole('row').filter({ hasText: 'chief (you)' }).getByRole('button', { name: 'Disable…' }).click();
    await owner.page.getByRole('button', { name: 'Disable chief' }).click();
    await owner.page.getByRole('alert').getByText('chief is the last active owner: make another admin an owner first').waitFor();
    await shot(owner.page, 'admins-refused', 'desktop');

    const mod = await signIn('mod_e2e', 'desktop');
    await mod.page.getByRole('heading', { name: 'Reports' }).waitFor();
    expect(await mod.page.getByRole('link', { name: 'Admins' }).count()).toBe(0);
    const refused = await mod.page.evaluate(async () => (await fetch('/api/admin/admins')).status);
    expect(refused).toBe(403);
    await mod.page.getByRole('list', { name: 'Report queue' }).waitFor();
    expect(await referencesShown(mod.page)).toEqual(['R-E2E0000001', 'R-E2E0000002', 'R-E2E0000003']);
    const card = (ref: string) => mod.page.getByRole('listitem').filter({ has: mod.page.getByRole('heading', { name: ref }) });
    expect(
      await card('R-E2E0000001')
        .getByText(/Overdue: acknowledge, decide$/)
        .count(),
    ).toBe(1);
    expect(
      await card('R-E2E0000002')
        .getByText(/Due soon by \d{4}-\d\d-\d\d \d\d:\d\d UTC$/)
        .count(),
    ).toBe(1);
    expect(
      await card('R-E2E0000003')
        .getByText(/On time: next step by /)
        .count(),
    ).toBe(1);
    const preview = card('R-E2E0000001').getByRole('img', { name: `Preview of ${vodTitle}` });
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await shot(mod.page, 'reports', 'desktop');
    await noAxeViolations(mod.page, 'reports');

    // A stale page: the CLI acknowledged R-E2E0000002 meanwhile; the console says so in words.
    await withKnex((knex) => runOpsCaptured(['reports', 'ack', 'R-E2E0000002', '--by', 'ann'], { env: { USER: 'e2e' }, knex }));
    await card('R-E2E0000002').getByRole('button', { name: 'Acknowledge R-E2E0000002' }).click();
    await mod.page.getByRole('alert').getByText('R-E2E0000002 was acknowledged already').waitFor();

    await card('R-E2E0000001').getByRole('button', { name: 'Acknowledge R-E2E0000001' }).click();
    await mod.page.getByRole('status').getByText('R-E2E0000001 is acknowledged.').waitFor();
    await card('R-E2E0000001')
      .getByRole('button', { name: `Take down ${vodTitle}` })
      .click();
    await mod.page.getByRole('status').getByText(`${vodTitle} is taken down (report R-E2E0000001).`).waitFor();
    await card('R-E2E0000001')
      .getByText(/^Taken down:/)
      .waitFor();
    await card('R-E2E0000001').getByRole('button', { name: 'Decide…' }).click();
    await mod.page.getByLabel('Outcome').selectOption('removed');
    await mod.page.getByLabel(/^Note/).fill('Consent missing: removed.');
    await shot(mod.page, 'reports-decide', 'desktop');
    await mod.page.getByRole('button', { name: 'Decide R-E2E0000001' }).click();
    await mod.page.getByRole('status').getByText('R-E2E0000001 is decided: Removed.').waitFor();
    await expect.poll(() => referencesShown(mod.page)).toEqual(['R-E2E0000002', 'R-E2E0000003']);

    await owner.page.getByRole('link', { name: 'Audit log' }).click();
    await owner.page.getByRole('cell', { name: 'report.resolve', exact: true }).waitFor();
    const rows = await owner.page.getByRole('row').allTextContents();
    const step = (action: string, target: string) => rows.findIndex((r) => r.includes(action) && r.includes(target));
    const order = [
      step('admin.add', 'mod_e2e'),
      step('admin.signin', 'mod_e2e'),
      step('report.ack', 'R-E2E0000001'),
      step('content.takedown', site.seeded.vod),
      step('report.resolve', 'R-E2E0000001'),
    ];
    expect(order.every((i) => i >= 0)).toBe(true);
    // Newest first.
    expect([...order].sort((a, b) => b - a)).toEqual(order);
    expect(rows[order[4]!]).toContain('mod_e2e');
    await shot(owner.page, 'audit-reports', 'desktop');
    // The browser logs the answers the test provoked: 401 before sign-in, the 403 it asked for, the stale 409.
    expect(mod.errors.filter((e) => !/status of (?:401|403|409)/.test(e))).toEqual([]);
  });

  it('the queue and the admins screen on a tablet', async () => {
    const mod = await signIn('mod_e2e', 'tablet');
    await mod.page.getByRole('list', { name: 'Report queue' }).waitFor();
    await shot(mod.page, 'reports', 'tablet');
    await noAxeViolations(mod.page, 'reports tablet');
    const owner = await signIn('chief', 'tablet');
    await owner.page.getByRole('link', { name: 'Admins' }).click();
    await owner.page.getByRole('row').filter({ hasText: 'mod_e2e' }).waitFor();
    await owner.page.getByRole('row').filter({ hasText: 'mod_e2e' }).getByRole('button', { name: 'New TOTP secret…' }).click();
    await owner.page.getByRole('button', { name: 'New secret for mod_e2e' }).click();
    await confirmWithCode(owner.page, await kit.freshCode('chief'));
    await owner.page.getByRole('heading', { name: 'TOTP secret for mod_e2e: shown once' }).waitFor();
    await shot(owner.page, 'admins', 'tablet');
    await noAxeViolations(owner.page, 'admins tablet');
    // The moderator's session ended with the old secret.
    await mod.page.reload();
    await mod.page.getByLabel('Name').waitFor();
  });
});
