import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MEMBER } from '@media-site/ops';
import { screenshotDir, signInAsDemo, startSite } from './browser';
import type { Site } from './browser';

/**
 * Errors that help, in Chromium through nginx and the real bff: a missing item is one
 * "isn't available" card with a way back (no Retry); a bff outage keeps a signed-in member on
 * /account with the "can't reach the site" notice instead of the sign-in form.
 */
let site: Site;

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const OUTAGE = "We can't reach the site right now. Your session is still there; try again in a moment.";
const SLOW = 'The site is taking too long to answer. Trying again…';
// The SPA gives up on a read after 8 s; the page says so at once, with some margin for a busy machine.
const SLOW_SHOWN_WITHIN_MS = 10_000;
// Then it asks again on its own after 1 s (the first backoff step): back well within this.
const RECOVERED_WITHIN_MS = 15_000;

beforeAll(async () => {
  site = await startSite({ demoMember: true });
}, 300_000);

afterAll(async () => {
  await site?.stop();
});

const shot = (page: Page, name: string, width: number) =>
  page.screenshot({ path: join(screenshotDir, `errors-${name}-${width}.png`), fullPage: false });

describe.each(Object.entries(VIEWPORTS))('errors that help (%s)', (_name, viewport) => {
  it('shows a missing video, photo set, VOD and model as the same card with a way back, never Retry', async () => {
    const { page } = await site.open(viewport);
    const cases: [string, string, string][] = [
      ['/video/no-such-video', 'Back to the videos', '/videos'],
      ['/photos/no-such-set', 'Back to the photo sets', '/photos'],
      ['/vod/no-such-vod', 'Back to the VODs', '/vod'],
      ['/models/Nobody%20Here', 'Back to the models', '/models'],
    ];
    for (const [path, back, href] of cases) {
      await page.goto(path);
      const card = page.locator('main .notice-card');
      await card.getByRole('heading', { name: "This item isn't available" }).waitFor();
      expect(await card.getByRole('link', { name: back }).getAttribute('href')).toBe(href);
      expect(await card.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
      expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
      expect(await page.locator('main').innerText()).not.toContain('HTTP error');
      if (path.startsWith('/video/')) await shot(page, 'unavailable', viewport.width);
    }
    // The way back works.
    await page.locator('main .notice-card').getByRole('link', { name: 'Back to the models' }).click();
    await page.waitForURL('**/models');
    await page.context().close();
  });

  it('keeps a signed-in member on /account during a bff outage and recovers with Retry', async () => {
    const { page, errors } = await site.open(viewport);
    await signInAsDemo(page);
    await page.goto('/account');
    await page.getByTestId('membership-status').waitFor();

    // The bff is stopped: nginx answers every /api call with 502.
    await page.route('**/api/**', (route) =>
      route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body>502 Bad Gateway</body></html>' }),
    );
    await page.reload();
    await page.getByText(OUTAGE).waitFor();
    expect(await page.getByText(`Signed in as ${DEMO_MEMBER.username}.`).count()).toBe(1);
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/account');
    await shot(page, 'outage', viewport.width);

    // Back up: Retry asks again and the account shows.
    await page.unroute('**/api/**');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('membership-status').waitFor();
    expect(await page.getByText(OUTAGE).count()).toBe(0);
    // The 502s above are the outage itself; nothing else went wrong.
    expect(errors.filter((line) => !line.includes('502'))).toEqual([]);
    await page.context().close();
  });

  it('says a hung backend is taking too long within ~8 s, then recovers by itself without a click', async () => {
    const { page } = await site.open(viewport);
    // A hung bff: the listing's request is accepted and never answered, until `hung` is cleared.
    let hung = true;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/photos/1', async (route) => {
      if (hung) await released;
      // The browser gave up on the hung ones (aborted): nothing to continue.
      await route.continue().catch(() => {});
    });
    const since = Date.now();
    await page.goto('/photos');
    await page.getByText(SLOW).waitFor({ timeout: SLOW_SHOWN_WITHIN_MS + 2000 });
    const shownAfter = Date.now() - since;
    expect(shownAfter).toBeLessThan(SLOW_SHOWN_WITHIN_MS);
    expect(await page.locator('main').innerText()).not.toMatch(/HTTP error|50[34]/);
    await shot(page, 'hung-backend', viewport.width);

    // The backend answers again: the page fills by itself (no click, no reload).
    hung = false;
    release();
    const back = Date.now();
    await page.locator('main .card, main li a').first().waitFor({ timeout: RECOVERED_WITHIN_MS });
    expect(Date.now() - back).toBeLessThan(RECOVERED_WITHIN_MS);
    expect(await page.getByText(SLOW).count()).toBe(0);
    console.log(
      `hung backend (${viewport.width}): plain message after ${shownAfter} ms, recovered ${Date.now() - back} ms after the backend answered`,
    );
    await page.context().close();
  }, 60_000);
});
