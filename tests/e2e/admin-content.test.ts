import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { AdminKit } from './admin-kit';
import { screenshotDir, startSite, type Site } from './browser';

// The console's Content screen through the real front door: a moderator finds a clip,
// edits its title, schedules and unschedules it, re-encodes it, takes it down and restores it; the
// public site follows each step. Support sees the list and nothing to change.
const SIZES = { desktop: { width: 1280, height: 800 }, tablet: { width: 820, height: 1180 } } as const;
type Size = keyof typeof SIZES;
const NEW_TITLE = 'Console renamed clip';

describe('the console Content screen', () => {
  let site: Site;
  let clip: string;
  // TOTP codes never a spent step, however fast the sign-ins come: the console files' shared kit.
  const admins = new AdminKit(() => site);

  async function withDb<T>(use: (knex: ReturnType<typeof createKnex>) => Promise<T>): Promise<T> {
    const knex = createKnex(site.stack.databaseUrl);
    try {
      return await use(knex);
    } finally {
      await knex.destroy();
    }
  }

  const addAdmin = (name: string, role: 'owner' | 'moderator' | 'support') => admins.addWithCli(name, role);

  async function openContent(name: string, size: Size): Promise<{ page: Page; errors: string[] }> {
    const opened = await site.open({ ...SIZES[size], ageConfirmed: false });
    // An operator east of UTC: the screen shows release times in their zone and in UTC.
    await (await opened.page.context().newCDPSession(opened.page)).send('Emulation.setTimezoneOverride', { timezoneId: 'Europe/Berlin' });
    await opened.page.goto('/admin');
    await opened.page.getByLabel('Name').fill(name);
    await opened.page.getByLabel('Code from your authenticator app').fill(await admins.freshCode(name));
    await opened.page.getByRole('button', { name: 'Sign in' }).click();
    await opened.page.getByText(`Signed in as ${name}`).waitFor();
    await opened.page.getByRole('link', { name: 'Content' }).click();
    await opened.page.getByRole('heading', { name: 'Content' }).waitFor();
    return opened;
  }

  async function find(page: Page, text: string) {
    await page.getByLabel('Title, model or path').fill(text);
    await page.getByRole('button', { name: 'Find' }).click();
    await page
      .getByRole('row')
      .filter({ hasText: `/video/${clip}` })
      .waitFor();
  }

  const row = (page: Page) => page.getByRole('row').filter({ hasText: `/video/${clip}` });
  const shot = (page: Page, name: string, size: Size) =>
    page.screenshot({ path: join(screenshotDir, `admin-content-${name}-${SIZES[size].width}.png`), fullPage: true });
  /** Waits for the status line; on a timeout, says what the screen showed instead. */
  async function notice(page: Page, text: string | RegExp) {
    try {
      await page.getByRole('status').getByText(text).waitFor({ timeout: 15_000 });
    } catch (err) {
      const seen = await page.locator('main').innerText();
      throw new Error(`no status ${String(text)}; the screen shows:\n${seen.slice(0, 1500)}`, { cause: err });
    }
  }

  const api = (path: string) => fetch(`${site.stack.baseUrl}${path}`);
  const detailStatus = async () => (await api(`/api/videos/prename/${clip}`)).status;
  const inSearch = async () => {
    const body = (await (await api(`/api/search/${encodeURIComponent(NEW_TITLE)}`)).json()) as { videos: Array<{ path: string }> };
    return body.videos.some((v) => v.path === clip);
  };
  const poll = { timeout: 20_000, interval: 100 };

  async function noAxeViolations(page: Page, name: string) {
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${name}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }

  beforeAll(async () => {
    // Short polls: a change reaches the running services at their next poll (no Redis in this stack).
    site = await startSite({ env: { CACHE_GENERATION_POLL_MS: '200' } });
    clip = site.seeded.video;
    await addAdmin('mod_e2e', 'moderator');
    await addAdmin('support_e2e', 'support');
    // The clip's last encode failed (no encoder runs in this stack): the screen shows it, and re-encodes it.
    await withDb(async (knex) => {
      await knex('media_jobs').where({ content_type: 'video', path: clip }).delete();
      await knex('media_jobs').insert({
        content_type: 'video',
        path: clip,
        source_sig: '1-1',
        status: 'failed',
        attempts: 3,
        error: 'ffmpeg exited with code 1: moov atom not found',
        created_at: 1,
        updated_at: 1,
      });
    });
  }, 180_000);
  afterAll(() => site?.stop());

  it('a moderator edits a clip, schedules and unschedules it, re-encodes it, takes it down and restores it', async () => {
    const { page, errors } = await openContent('mod_e2e', 'desktop');
    await find(page, clip);
    expect(await row(page).textContent()).toContain('Last error: ffmpeg exited with code 1: moov atom not found');
    await shot(page, 'list', 'desktop');
    await noAxeViolations(page, 'content list');

    // Bad input: the API's message, and nothing changes.
    await row(page).getByRole('button', { name: 'Edit…' }).click();
    await page.getByLabel('Title', { exact: true }).fill('   ');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('alert').getByText('title: must not be empty').waitFor();
    await shot(page, 'edit-refused', 'desktop');

    await page.getByLabel('Title', { exact: true }).fill(NEW_TITLE);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await notice(page, `Video ${clip}: title saved.`);
    await expect.poll(inSearch, poll).toBe(true);
    const visitor = await site.open(SIZES.desktop);
    await visitor.page.goto(`/video/${clip}`);
    await visitor.page.getByRole('heading', { level: 1, name: NEW_TITLE }).waitFor();

    // Scheduled a minute ahead: gone from the public search and the detail; unscheduled: back.
    await find(page, NEW_TITLE);
    await row(page).getByRole('button', { name: 'Schedule…' }).click();
    await page.getByText(/^That is \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\./).waitFor();
    await shot(page, 'schedule', 'desktop');
    await page.getByRole('button', { name: 'Schedule release' }).click();
    await notice(page, new RegExp(`^Video ${clip} is scheduled for .+ \\(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC\\)\\.$`));
    // The list is read again after the notice: wait for the row to show the schedule.
    await expect.poll(async () => await row(page).textContent(), poll).toMatch(/Scheduled.+(CET|GMT\+1).+UTC/);
    await shot(page, 'scheduled', 'desktop');
    await expect.poll(inSearch, poll).toBe(false);
    await expect.poll(detailStatus, poll).toBe(404);
    await row(page).getByRole('button', { name: 'Unschedule' }).click();
    await notice(page, 'is unscheduled and published now');
    await expect.poll(inSearch, poll).toBe(true);

    await row(page).getByRole('button', { name: 'Re-encode' }).click();
    await notice(page, `Video ${clip} is queued for encoding again.`);
    // The list is read again after the notice: wait for the row to show it.
    await expect.poll(async () => await row(page).textContent(), poll).toContain('queued, 0 attempts');
    // Waiting in the queue: nothing to re-encode until a worker has run it.
    expect(await row(page).getByRole('button', { name: 'Re-encode' }).count()).toBe(0);

    await row(page).getByRole('button', { name: 'Take down…' }).click();
    await page.getByLabel('Why take it down?').fill('e2e: the console takes it down');
    await page.getByRole('button', { name: 'Take down', exact: true }).click();
    await notice(page, `Video ${clip} is taken down.`);
    await expect.poll(detailStatus, poll).toBe(404);
    await shot(page, 'taken-down', 'desktop');
    await row(page).getByRole('button', { name: 'Restore…' }).click();
    await page.getByLabel('Why restore it?').fill('e2e: restored after review');
    await page.getByRole('button', { name: 'Restore', exact: true }).click();
    await notice(page, `Video ${clip} is restored.`);
    await expect.poll(detailStatus, poll).toBe(200);

    const actions = await withDb(
      async (knex) =>
        (await knex('admin_audit')
          .where({ actor: 'mod_e2e', target: `video ${clip}` })
          .orderBy('id')
          .select('action')) as Array<{
          action: string;
        }>,
    );
    expect(actions.map((a) => a.action)).toEqual([
      'content.edit',
      'content.schedule',
      'content.unschedule',
      'content.reencode',
      'content.takedown',
      'content.restore',
    ]);
    expect(errors.filter((e) => !e.includes('status of 401') && !e.includes('status of 400'))).toEqual([]);
  });

  it('on a tablet the list, the filters and the edit form fit; a backend failure is said in words', async () => {
    const { page } = await openContent('mod_e2e', 'tablet');
    await page.getByLabel('Type').selectOption({ label: 'Videos' });
    await find(page, clip);
    await row(page).getByRole('button', { name: 'Edit…' }).click();
    await page.getByLabel('Title', { exact: true }).waitFor();
    await shot(page, 'edit', 'tablet');
    await noAxeViolations(page, 'content edit tablet');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SIZES.tablet.width);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.route('**/api/admin/content?*', (route) => route.fulfill({ status: 503, body: 'unavailable' }));
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('alert').getByText('The server could not answer (503): try again in a moment.').waitFor();
    await shot(page, 'backend-error', 'tablet');
  });

  it('a moderator takes 20 photo sets down in one change, after a preview, each with its audit row, and restores them', async () => {
    const { page, errors } = await openContent('mod_e2e', 'desktop');
    const before = await withDb(async (knex) => ({
      takedowns: Number((await knex('takedowns').count({ n: '*' }).first())?.n),
      photoPaths: new Set((await knex('takedowns').where({ content_type: 'photoset' }).pluck('path')) as string[]),
      audit: Number((await knex('admin_audit').where({ action: 'content.takedown' }).count({ n: '*' }).first())?.n),
    }));
    await page.getByLabel('Type').selectOption('photoset');
    await page.getByRole('button', { name: 'Find' }).click();
    const checks = page.locator('main input.admin-row-check');
    await expect.poll(() => checks.count()).toBeGreaterThanOrEqual(20);
    for (let i = 0; i < 20; i++) await checks.nth(i).check();
    const bar = page.getByRole('region', { name: '20 items selected' });
    await bar.getByLabel('Why?').fill('Bulk check: consent records missing');
    await bar.getByRole('button', { name: 'Preview' }).click();
    await bar.getByRole('region', { name: 'Take down: 20 items would change' }).waitFor();
    await shot(page, 'bulk-preview', 'desktop');
    await noAxeViolations(page, 'bulk preview');
    expect(await withDb(async (knex) => Number((await knex('takedowns').count({ n: '*' }).first())?.n))).toBe(before.takedowns);
    await bar.getByRole('button', { name: 'Take down: apply to 20 items' }).click();
    await notice(page, '20 items taken down.');
    const down = await withDb(async (knex) => ({
      paths: ((await knex('takedowns').where({ content_type: 'photoset' }).pluck('path')) as string[]).filter(
        (p) => !before.photoPaths.has(p),
      ),
      audit: Number((await knex('admin_audit').where({ action: 'content.takedown', actor: 'mod_e2e' }).count({ n: '*' }).first())?.n),
    }));
    expect(down.paths).toHaveLength(20);
    expect(down.audit - before.audit).toBeGreaterThanOrEqual(20);
    await expect.poll(async () => (await api(`/api/photos/set/${down.paths[0]}`)).status, poll).not.toBe(200);

    // Restore them: the taken-down list, all on the page, one change.
    await page.getByLabel('State').selectOption('takendown');
    await page.getByLabel('Type').selectOption('photoset');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByText('Select all 20 on this page').click();
    const again = page.getByRole('region', { name: '20 items selected' });
    await again.getByLabel('Change').selectOption('restore');
    await again.getByLabel('Why?').fill('Records found');
    await again.getByRole('button', { name: 'Preview' }).click();
    await again.getByRole('button', { name: 'Restore: apply to 20 items' }).click();
    await notice(page, '20 items restored.');
    expect(await withDb(async (knex) => Number((await knex('takedowns').count({ n: '*' }).first())?.n))).toBe(before.takedowns);
    await expect.poll(async () => (await api(`/api/photos/set/${down.paths[0]}`)).status, poll).toBe(200);

    // Every photo set the search matches, across its pages, chosen in one click (then let go).
    await page.getByLabel('State').selectOption('all');
    await page.getByLabel('Type').selectOption('photoset');
    await page.getByRole('button', { name: 'Find' }).click();
    const total = await withDb(async (knex) => Number((await knex('photosets').count({ n: '*' }).first())?.n));
    expect(total).toBeGreaterThan(25);
    await page.getByRole('button', { name: 'Select all matching (up to 100)' }).click();
    await notice(page, `Selected all ${total} matching items.`);
    const all = page.getByRole('region', { name: `${total} items selected` });
    await all.getByRole('button', { name: 'Clear selection' }).click();
    await all.waitFor({ state: 'detached' });
    // The console asks who is signed in before the sign-in: that 401 is expected.
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    await page.context().close();
  });

  it('support sees the list with no change buttons, and the API refuses changes with 403', async () => {
    const { page } = await openContent('support_e2e', 'desktop');
    await find(page, clip);
    expect(await page.getByRole('columnheader', { name: 'Change' }).count()).toBe(0);
    await page.getByText('Your role sees content; a moderator or the owner changes it.').waitFor();
    for (const name of ['Edit…', 'Schedule…', 'Re-encode', 'Take down…', 'Restore…'])
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    await shot(page, 'support', 'desktop');
    const refused = await page.evaluate(async (path) => {
      const answers = [];
      for (const [route, body] of [
        ['/api/admin/content/edit', { path, title: 'support edit' }],
        ['/api/admin/content/schedule', { path, at: null }],
        ['/api/admin/content/reencode', { path }],
        ['/api/admin/takedowns', { path, reason: 'support' }],
      ] as const) {
        const res = await fetch(route, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        answers.push(`${res.status} ${((await res.json()) as { error: { message: string } }).error.message}`);
      }
      return answers;
    }, `/video/${clip}`);
    expect(refused).toEqual([
      '403 the support role may not change content',
      '403 the support role may not change content',
      '403 the support role may not change content',
      '403 the support role may not take content down or restore it',
    ]);
  });
});
