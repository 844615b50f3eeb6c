import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { catalogCli } from '../src/catalog-cli';
import { launchChromium } from '../src/chromium';
import { startStack, type Stack } from '../src/stack';

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  // Short polls so a CLI change reaches the running services quickly (no Redis in this stack).
  stack = await startStack({ env: { CACHE_GENERATION_POLL_MS: '200', MEDIA_TAKEDOWN_INTERVAL_S: '1' } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const catalog = (...argv: string[]) => catalogCli(stack, ...argv);

describe('content reports end to end', () => {
  it('a visitor reports content on /contact, gets a reference, and appeals the decision in the browser', async () => {
    const context = await browser.newContext({ baseURL: stack.baseUrl });
    await context.addInitScript(() => window.localStorage.setItem('ageConfirmed', 'true'));
    const page = await context.newPage();
    try {
      await page.goto('/contact');
      await page.getByLabel('Address of the page or file').fill('/video/some-folder');
      await page.getByLabel('Reason').selectOption({ label: 'I am depicted and did not consent' });
      await page.getByLabel('Details').fill('This is me; I never agreed to this being published.');
      await page.getByLabel(/Your e-mail address/).fill('me@example.com');
      await page.getByRole('button', { name: 'Send report' }).click();
      const reference = (await page.getByTestId('report-reference').textContent({ timeout: 30_000 })) ?? '';
      expect(reference).toMatch(/^R-[0-9A-Z]{10}$/);
      const receipt = (await page.locator('main').textContent()) ?? '';
      expect(receipt).toContain('within 48 hours');
      expect(receipt).toContain('within seven business days');
      expect(receipt).toContain('within 14 business days');

      const listed = await catalog('reports', 'list', '--json');
      expect(JSON.parse(listed.out).map((r: { reference: string }) => r.reference)).toContain(reference);
      expect(
        (await catalog('reports', 'resolve', reference, '--outcome', 'no_action', '--note', 'release on file', '--by', 'ops')).code,
      ).toBe(0);

      await page.getByRole('link', { name: 'appeal' }).click();
      await page.getByText(/No action was taken/).waitFor({ timeout: 30_000 });
      await page.getByLabel('Why should the decision change?').fill('The release on file is not mine.');
      await page.getByRole('button', { name: 'Send appeal' }).click();
      await page.getByText(/Your appeal has been received/).waitFor({ timeout: 30_000 });
      const shown = JSON.parse((await catalog('reports', 'show', reference, '--json')).out) as Record<string, unknown>;
      expect(shown).toMatchObject({
        reason: 'no_consent',
        content_url: '/video/some-folder',
        appeal_text: 'The release on file is not mine.',
      });
    } finally {
      await context.close();
    }
  });

  it('a takedown hides a video from search and detail and its media answers 410; restore brings it back', async () => {
    const knex = createKnex(stack.databaseUrl);
    const video = (await knex('videos').orderBy('id').first('path', 'updatename')) as { path: string; updatename: string };
    await knex.destroy();
    const thumb = `${stack.baseUrl}/members/videothumbs/${video.path}/${video.path}_02.jpg`;
    const detail = `${stack.baseUrl}/api/videos/prename/${video.path}`;
    const searchPaths = async () => {
      const body = (await (await fetch(`${stack.baseUrl}/api/search/${encodeURIComponent(video.updatename)}`)).json()) as {
        videos: Array<{ path: string }>;
      };
      return body.videos.map((v) => v.path);
    };
    expect((await fetch(thumb)).status).toBe(200);
    expect((await fetch(detail)).status).toBe(200);
    expect(await searchPaths()).toContain(video.path);

    expect((await catalog('takedown', `/video/${video.path}`, '--by', 'ops', '--reason', 'e2e takedown')).code).toBe(0);
    // The services pick the change up at their next poll; no fixed sleeps.
    await expect.poll(async () => (await fetch(detail)).status, { timeout: 20_000, interval: 100 }).toBe(404);
    // Search answers are cached per catalog generation: they change once the bff has polled it.
    await expect.poll(async () => (await searchPaths()).includes(video.path), { timeout: 20_000, interval: 100 }).toBe(false);
    await expect.poll(async () => (await fetch(thumb)).status, { timeout: 20_000, interval: 200 }).toBe(410);

    expect((await catalog('restore', `/video/${video.path}`, '--by', 'ops', '--reason', 'e2e restore')).code).toBe(0);
    await expect.poll(async () => (await fetch(detail)).status, { timeout: 20_000, interval: 100 }).toBe(200);
    await expect.poll(async () => (await searchPaths()).includes(video.path), { timeout: 20_000, interval: 100 }).toBe(true);
    await expect.poll(async () => (await fetch(thumb)).status, { timeout: 20_000, interval: 200 }).toBe(200);
    const log = JSON.parse((await catalog('takedowns', '--log', '--json')).out) as Array<{ action: string; actor: string; reason: string }>;
    expect(log.map((l) => [l.action, l.actor, l.reason])).toEqual([
      ['takedown', 'ops', 'e2e takedown'],
      ['restore', 'ops', 'e2e restore'],
    ]);
  });
});
