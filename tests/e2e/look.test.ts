import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MEMBER } from '@media-site/ops';
import { screenshotDir, screenshotsOf, signInAsDemo, startSite, VIEWPORTS, type Viewport } from './browser';
import { settled } from './quiet';
import type { Site } from './browser';

/**
 * Presentation, in Chromium through nginx and the real bff: the header is one row on a laptop for a
 * visitor, and for a member brand, search and session over a row of links (one row squeezed the
 * search box to a stub); it stays within an eighth of a phone's screen with the name in its menu;
 * home opens with the 2257 line, then a hero (Join for visitors, a welcome for members); sign-in and
 * join link to each other; the brand (name and logo) comes from SITE_NAME and SITE_LOGO; between 768 and
 * 1199 px the links fold behind Menu so the header stays one row. Screenshots:
 * look-{home-visitor,home-member,header-signed-in,sign-in}-{390,1280}.png, look-tablet-{menu,header}-1024.png.
 */
let site: Site;
const shot = screenshotsOf('look');
// One row: 10 px padding above and below a 38 px control, and the border; two rows are over 100 px.
const ONE_ROW_MAX_PX = 70;
// The links' own row under a member's laptop header: a 35 px link and the gap.
const LINK_ROW_PX = 40;
// The accent (styles.css --accent) behind Join.
const ACCENT = 'rgb(240, 179, 90)';

// The brand from configuration: a name with characters that need escaping in HTML, and a PNG logo.
const BRAND = "Studio & Co's";
let brandDir: string;

beforeAll(async () => {
  brandDir = mkdtempSync(join(tmpdir(), 'brand-'));
  const logo = join(brandDir, 'logo.png');
  writeFileSync(
    logo,
    await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3a7bd5' } })
      .png()
      .toBuffer(),
  );
  site = await startSite({ demoMember: true, env: { SITE_NAME: BRAND, SITE_LOGO: logo } });
}, 300_000);

afterAll(async () => {
  await site?.stop();
  rmSync(brandDir, { recursive: true, force: true });
});

const top = async (locator: Locator) => (await locator.boundingBox())?.y ?? NaN;

/** The header fits its size: one row on a laptop, within 12 % of a phone's screen (navigation.test.ts). */
async function expectHeaderFits(page: Page, viewport: Viewport, rows = 1): Promise<void> {
  const height = (await page.locator('header.site-header').boundingBox())?.height ?? 999;
  console.info(`header at ${VIEWPORTS[viewport].width}px: ${height}px`);
  expect(height).toBeLessThanOrEqual(viewport === 'desktop' ? ONE_ROW_MAX_PX + (rows - 1) * LINK_ROW_PX : VIEWPORTS.phone.height * 0.12);
}

async function openHome(viewport: Viewport): Promise<Page> {
  const { page } = await site.open(VIEWPORTS[viewport]);
  await page.goto('/');
  await page.locator('main .home-columns li.card').first().waitFor();
  await settled(page);
  return page;
}

describe.each(Object.keys(VIEWPORTS) as Viewport[])('presentation (%s)', (viewport) => {
  it('home for a visitor: the 2257 line, then the pitch with Join, then the updates; Join is a button', async () => {
    const page = await openHome(viewport);
    const legal = page.locator('main .top-link').getByRole('link', { name: /2257/ });
    const hero = page.getByRole('region', { name: 'Membership' });
    const join = hero.getByRole('link', { name: 'Join' });
    await join.waitFor();
    expect(await join.getAttribute('href')).toBe('/join');
    expect(await top(legal)).toBeLessThan(await top(hero));
    expect(await top(hero)).toBeLessThan(await top(page.getByRole('heading', { name: 'Latest Photos' })));
    // The hero starts on the first screen.
    expect(await top(hero)).toBeLessThan(VIEWPORTS[viewport].height / 2);
    expect(await join.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(ACCENT);
    // The header's Join is drawn as a button too (on a phone, inside the menu).
    const menu = page.getByRole('button', { name: 'Menu' });
    await expectHeaderFits(page, viewport);
    await shot(page, 'home-visitor', viewport);
    if (await menu.isVisible()) await menu.click();
    const navJoin = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Join' });
    expect(await navJoin.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(ACCENT);
    await page.context().close();
  });

  it('sign-in links to Join and the join page back to Sign in', async () => {
    const { page, errors } = await site.open(VIEWPORTS[viewport]);
    await page.goto('/login');
    const main = page.locator('main');
    await main.getByRole('link', { name: 'Forgot password?' }).waitFor();
    await shot(page, 'sign-in', viewport);
    await main.getByRole('link', { name: 'Join' }).click();
    await page.waitForURL('**/join');
    await main.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('home for a member: the links on their own row on a laptop, the name and My list in the phone menu, a welcome with the newest updates', async () => {
    const { page, errors } = await site.open(VIEWPORTS[viewport]);
    await signInAsDemo(page);
    await page.goto('/');
    const hero = page.getByRole('region', { name: 'Welcome' });
    await hero.getByText(`Welcome back, ${DEMO_MEMBER.username}.`).waitFor();
    expect(await hero.getByRole('link', { name: 'New photo sets' }).getAttribute('href')).toBe('/photos?sort=date');
    expect(await page.getByRole('region', { name: 'Membership' }).count()).toBe(0);
    await page.locator('main .home-columns li.card').first().waitFor();
    await settled(page);
    await expectHeaderFits(page, viewport, 2);
    expect(await page.locator('header').innerText()).toContain(DEMO_MEMBER.username);
    await shot(page, 'home-member', viewport);

    const menu = page.getByRole('button', { name: 'Menu' });
    if (viewport === 'phone') {
      await menu.click();
      await page.getByText(`Signed in as ${DEMO_MEMBER.username}`).waitFor();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My list' }).waitFor();
    } else {
      expect(await menu.isVisible()).toBe(false);
      // Brand, search, My list and Sign out share the first row, with a search box one can type in;
      // the links have the second, whole.
      const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!;
      const middle = async (selector: string) => {
        const b = await box(selector);
        return b.y + b.height / 2;
      };
      const row = await middle('header .brand');
      for (const selector of ['header .search-box', 'header .session-member']) {
        expect(Math.abs((await middle(selector)) - row), selector).toBeLessThanOrEqual(4);
      }
      expect((await box('header .search-box input')).width).toBeGreaterThanOrEqual(200);
      const session = await box('header .session-member');
      expect(session.x + session.width).toBeLessThanOrEqual(VIEWPORTS.desktop.width);
      expect(await middle('header .nav-links')).toBeGreaterThan(row + 20);
      await page.locator('header').getByRole('link', { name: 'My list' }).waitFor();
      expect(await page.getByText(`Signed in as ${DEMO_MEMBER.username}`).isVisible()).toBe(false);
    }
    await shot(page, 'header-signed-in', viewport);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('the brand and the tablet header', () => {
  it('writes SITE_NAME into the title and header, and serves SITE_LOGO under a versioned URL it cannot run from', async () => {
    const { page, errors } = await site.open(VIEWPORTS.desktop);
    const first = await page.goto('/models');
    // nginx wrote the name into the page itself (escaped), before any script ran.
    expect(await first?.text()).toContain('<title>Studio &amp; Co&#39;s</title>');
    // Home has a location of its own (its preload header): the brand is written there too.
    expect(await (await page.request.get('/')).text()).toContain('<title>Studio &amp; Co&#39;s</title>');
    await page.getByRole('heading', { level: 1, name: 'Models' }).waitFor();
    expect(await page.title()).toBe(`Models – ${BRAND}`);
    const brand = page.locator('header .brand');
    expect(await brand.innerText()).toBe(BRAND);
    const logo = brand.locator('img');
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
    const src = (await logo.getAttribute('src')) ?? '';
    expect(src).toMatch(/^\/brand\/logo\?v=[0-9a-f]{12}$/);
    const answer = await page.request.get(src);
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('image/png');
    expect(answer.headers()['cache-control']).toContain('immutable');
    expect(answer.headers()['content-security-policy']).toContain('sandbox');
    expect(await page.locator('footer').innerText()).toContain(`© ${BRAND}`);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('keeps a signed-in header to one row at 1024 px, with the links behind Menu', async () => {
    const tablet = { width: 1024, height: 768 };
    const { page, errors } = await site.open(tablet);
    await signInAsDemo(page);
    await page.goto('/');
    await page.locator('main .home-columns li.card').first().waitFor();
    const height = (await page.locator('header.site-header').boundingBox())?.height ?? 999;
    expect(height).toBeLessThanOrEqual(ONE_ROW_MAX_PX);
    expect(await page.locator('header .search-box').isVisible()).toBe(true);
    expect(await page.locator('header .session-member').isVisible()).toBe(true);
    await page.screenshot({ path: join(screenshotDir, 'look-tablet-header-1024.png') });
    await page.getByRole('button', { name: 'Menu' }).click();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Videos' }).waitFor();
    await page.getByText(`Signed in as ${DEMO_MEMBER.username}`).waitFor();
    await page.screenshot({ path: join(screenshotDir, 'look-tablet-menu-1024.png') });
    await nav.getByRole('link', { name: 'Videos' }).click();
    await page.waitForURL('**/videos');
    // A link closes the menu.
    await expect.poll(() => nav.getByRole('link', { name: 'Videos' }).isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
