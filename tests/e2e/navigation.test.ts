import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotDir, scrollToBottom, startSite, vodScrolledTo } from './browser';
import { settled } from './quiet';
import type { Site } from './browser';

// Navigation: Back, focus and titles, the age gate, the phone header, error recovery.
let site: Site;

beforeAll(async () => {
  site = await startSite();
});

afterAll(async () => {
  await site?.stop();
});

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const SITE_NAME = 'Media Site';

const cardCount = (page: Page) => page.locator('main li.card').count();
const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

/** What has focus, as the test reads it: tag, text and whether it sits inside the given selector. */
function focused(page: Page, within = 'body') {
  return page.evaluate((selector) => {
    const element = document.activeElement;
    return {
      tag: element?.tagName.toLowerCase() ?? '',
      text: element?.textContent?.trim() ?? '',
      inside: Boolean(element?.closest(selector)),
    };
  }, within);
}

async function seriousAxeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => violation.id);
}

async function waitForFocusedHeading(page: Page, name: string | RegExp) {
  await page.waitForFunction(() => document.activeElement?.tagName === 'H1', undefined, { timeout: 15_000 });
  expect((await focused(page)).text).toMatch(name);
}

describe.each(VIEWPORTS)('Back restores the place in a listing ($name)', ({ width, height }) => {
  it('home: scroll position and every loaded card', async () => {
    const { page, errors } = await site.open({ width, height });
    await page.goto('/');
    await page.locator('main li.card').first().waitFor();
    // Load a few pages of the feed, as a visitor scrolling down would.
    while ((await cardCount(page)) <= 60) {
      const before = await cardCount(page);
      await scrollToBottom(page);
      await page.waitForFunction((count) => document.querySelectorAll('main li.card').length > count, before);
    }
    await settled(page);
    const cards = await cardCount(page);
    expect(cards).toBeGreaterThan(60);
    // Well down the page, then a card that is in view there.
    await page.evaluate(() => window.scrollTo(0, Math.round((document.documentElement.scrollHeight - window.innerHeight) * 0.7)));
    const saved = await scrollY(page);
    expect(saved).toBeGreaterThan(1000);
    const inView = await page.evaluate(() =>
      [...document.querySelectorAll('main li.card a')].findIndex((link) => {
        const box = link.getBoundingClientRect();
        return box.top > 0 && box.bottom < window.innerHeight;
      }),
    );
    expect(inView).toBeGreaterThanOrEqual(0);
    await page.locator('main li.card a').nth(inView).click();
    await page.waitForURL((url) => url.pathname !== '/');
    await page.locator('main h1').first().waitFor();

    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) <= 2, saved, { timeout: 15_000 });
    expect(await cardCount(page)).toBe(cards);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('/photos: scroll position on the same page of the gallery', async () => {
    const { page, errors } = await site.open({ width, height });
    await page.goto('/photos?page=2&sort=alpha');
    await page.locator('main li.card').first().waitFor();
    const cards = await cardCount(page);
    const titles = await page.locator('main .card-title').allTextContents();
    await scrollToBottom(page);
    const saved = await scrollY(page);
    expect(saved).toBeGreaterThan(50);
    await page.locator('main li.card a').last().click();
    await page.waitForURL((url) => url.pathname.startsWith('/photos/'));
    await page.locator('main h1').first().waitFor();

    await page.goBack();
    await page.waitForURL(/\/photos\?page=2&sort=alpha$/);
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) <= 2, saved, { timeout: 15_000 });
    expect(await cardCount(page)).toBe(cards);
    expect(await page.locator('main .card-title').allTextContents()).toEqual(titles);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a new visit to a listing starts at the top', async () => {
    const { page } = await site.open({ width, height });
    await page.goto('/');
    await page.locator('main li.card').first().waitFor();
    await page.evaluate(() => window.scrollTo(0, 600));
    await page.locator('main li.card a').first().click();
    await page.waitForURL((url) => url.pathname !== '/');
    await page.locator('main h1').first().waitFor();
    await page.goto('/');
    await page.locator('main li.card').first().waitFor();
    expect(await scrollY(page)).toBe(0);
    await page.context().close();
  });
});

describe('Back restores the place on the other listings (390×844)', () => {
  const cases = () =>
    [
      ['/videos', 'main li.card a'],
      [`/search/${encodeURIComponent('a')}`, 'main a[href^="/photos/"]'],
    ] as const;

  it('videos and search come back to the same position', async () => {
    const { page } = await site.open({ width: 390, height: 844 });
    for (const [path, links] of cases()) {
      await page.goto(path);
      await page.locator(links).first().waitFor();
      await settled(page);
      await scrollToBottom(page);
      // The position when leaving counts: the link clicked may sit above the bottom.
      const link = page.locator(links).last();
      await link.scrollIntoViewIfNeeded();
      const saved = await scrollY(page);
      expect(saved, path).toBeGreaterThan(50);
      await link.click();
      await page.waitForURL((url) => `${url.pathname}${url.search}` !== path);
      await page.locator('main h1').first().waitFor();
      await page.goBack();
      await page
        .waitForFunction((y) => Math.abs(window.scrollY - y) <= 2, saved, { timeout: 15_000 })
        .catch(async (error: unknown) => {
          const now = await page.evaluate(() => [
            window.scrollY,
            document.documentElement.scrollHeight,
            location.href,
            sessionStorage.getItem('historyMemory'),
          ]);
          throw new Error(`${path}: saved ${saved}, now ${JSON.stringify(now)}: ${String(error)}`);
        });
    }
    await page.context().close();
  }, 90_000);

  it('/vod also comes back when the visitor returns by the nav link (spec §2)', async () => {
    const { page } = await site.open({ width: 1280, height: 800 });
    await vodScrolledTo(page, 700);
    const cards = await cardCount(page);
    // Open a VOD in view, then come back through the main navigation rather than Back.
    const inView = await page.evaluate(() =>
      [...document.querySelectorAll('main li.card a')].findIndex((link) => {
        const box = link.getBoundingClientRect();
        return box.top > 0 && box.bottom < window.innerHeight;
      }),
    );
    await page.locator('main li.card a').nth(inView).click();
    await page.waitForURL(/\/vod\/[^/]+$/);
    await page.locator('main h1').first().waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'VOD' }).click();
    await page.waitForURL(/\/vod$/);
    await page.waitForFunction(() => Math.abs(window.scrollY - 700) <= 2, undefined, { timeout: 15_000 });
    expect(await cardCount(page)).toBe(cards);
    await page.context().close();
  });
});

describe.each(VIEWPORTS)('focus and titles on navigation ($name)', ({ width, height }) => {
  it('moves focus to the new page heading and names the page in the title', async () => {
    const { page } = await site.open({ width, height });
    await page.goto('/');
    await page.locator('main .home-columns li.card').first().waitFor();
    expect(await page.title()).toBe(`Home – ${SITE_NAME}`);

    // A photo set of the latest updates (the free photo sets above them are cards too).
    await page.locator('main .home-columns li.card a').first().click();
    await page.waitForURL((url) => url.pathname.startsWith('/photos/'));
    await waitForFocusedHeading(page, /.+/);
    const setTitle = await page.title();
    expect(setTitle).toMatch(new RegExp(`^.+ – ${SITE_NAME}$`));
    expect(setTitle).not.toBe(`Home – ${SITE_NAME}`);

    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
    await waitForFocusedHeading(page, 'Latest updates');
    expect(await page.title()).toBe(`Home – ${SITE_NAME}`);

    // Through the main navigation (on a phone, behind the menu button).
    const menu = page.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) await menu.click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Photos' }).click();
    await page.waitForURL(/\/photos$/);
    await waitForFocusedHeading(page, 'Photos');
    expect(await page.title()).toBe(`Photos – ${SITE_NAME}`);
    await page.context().close();
  });

  it('gives every listing and info route its own title', async () => {
    const { page } = await site.open({ width, height });
    const expected: [string, string][] = [
      ['/vod', 'VOD'],
      ['/videos', 'Videos'],
      ['/models', 'Models'],
      ['/contact', 'Contact'],
      ['/no/such/page', 'Page not found'],
    ];
    for (const [path, title] of expected) {
      await page.goto(path);
      await page.locator('main h1').first().waitFor();
      await page.waitForFunction((text) => document.title === text, `${title} – ${SITE_NAME}`);
    }
    await page.context().close();
  });
});

describe.each(VIEWPORTS)('age gate ($name)', ({ width, height }) => {
  it('is a modal that keeps focus and cannot be dismissed with Escape', async () => {
    const { page } = await site.open({ width, height, ageConfirmed: false });
    await page.goto('/photos');
    const dialog = page.getByRole('dialog', { name: 'Adults only' });
    await dialog.waitFor();
    expect((await focused(page, 'dialog')).inside).toBe(true);
    await page.screenshot({ path: join(screenshotDir, `age-gate-${width}.png`) });
    expect(await seriousAxeViolations(page)).toEqual([]);
    for (let step = 0; step < 8; step += 1) {
      await page.keyboard.press(step % 3 === 2 ? 'Shift+Tab' : 'Tab');
      expect((await focused(page, 'dialog')).inside, `after key ${step + 1}`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    expect(await cardCount(page)).toBe(0);
    expect((await focused(page, 'dialog')).inside).toBe(true);
    await dialog.getByRole('button', { name: /18 or older/ }).click();
    await page.locator('main li.card').first().waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.context().close();
  });

  it('leaves the appeal route open, like /contact', async () => {
    const { page } = await site.open({ width, height, ageConfirmed: false });
    for (const path of ['/reports/R-NOSUCH1/appeal', '/contact']) {
      await page.goto(path);
      await page.locator('main h1').first().waitFor();
      expect(await page.getByRole('dialog').count(), path).toBe(0);
    }
    await page.goto('/photos');
    await page.getByRole('dialog', { name: 'Adults only' }).waitFor();
    await page.context().close();
  });
});

describe('phone layout (390×844)', () => {
  it('keeps the header within 12% of the screen and opens the menu from a button', async () => {
    const { page } = await site.open({ width: 390, height: 844 });
    await page.goto('/');
    await page.locator('main li.card').first().waitFor();
    const header = await page.locator('header.site-header').boundingBox();
    console.info(`header at 390×844: ${header?.height}px`);
    expect(header?.height ?? 999).toBeLessThanOrEqual(844 * 0.12);

    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.getByRole('link', { name: 'Videos' }).isVisible()).toBe(false);

    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'Videos' }).waitFor();
    await page.screenshot({ path: join(screenshotDir, 'menu-open-390.png') });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.getByRole('link', { name: 'Videos' }).isVisible()).toBe(false);
    expect((await focused(page)).text).toBe('Menu');

    await menu.click();
    await nav.getByRole('link', { name: 'Videos' }).click();
    await page.waitForURL(/\/videos$/);
    // The router may still be loading the lazy page here; the click itself closed the menu.
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => nav.getByRole('link', { name: 'Videos' }).isVisible()).toBe(false);
    await page.context().close();
  });

  it('shows the whole navigation without a menu button on desktop', async () => {
    const { page } = await site.open({ width: 1280, height: 800 });
    await page.goto('/');
    await page.locator('main li.card').first().waitFor();
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Videos' }).isVisible()).toBe(true);
    await page.context().close();
  });

  it('has no horizontal overflow on any route', async () => {
    const { photo, video, vod, free, model } = site.seeded;
    const name = encodeURIComponent(model);
    const paths = [
      '/',
      '/vod',
      '/photos',
      '/videos',
      '/models',
      `/models/${name}`,
      `/modelname/${name}`,
      '/models/Nobody%20Here',
      `/video/${video}`,
      `/photos/${photo}`,
      `/vod/${vod}`,
      '/vod/no-such-vod',
      `/freephotos/${free}`,
      `/search/${name}`,
      '/2257',
      '/privatesales',
      '/join',
      '/contact',
      '/links',
      '/forum',
      '/free',
      '/affiliates',
      '/ccbill',
      '/test',
      '/login',
      '/reports/R-NOSUCH1/appeal',
      '/no/such/page',
    ];
    const { page } = await site.open({ width: 390, height: 844 });
    const wide: string[] = [];
    for (const path of paths) {
      await page.goto(path);
      await settled(page);
      await page.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('Loading...'));
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      if (scrollWidth > innerWidth) wide.push(`${path}: ${scrollWidth} > ${innerWidth}`);
    }
    expect(wide).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('wraps a long file-name heading on /video', async () => {
    const { page } = await site.open({ width: 390, height: 844 });
    await page.goto(`/video/${site.seeded.video}`);
    const heading = page.locator('main h1');
    await heading.waitFor();
    const { scrollWidth, clientWidth } = await heading.evaluate((element) => ({
      scrollWidth: element.scrollWidth,
      clientWidth: element.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    await page.context().close();
  });
});

describe.each(VIEWPORTS)('card focus ring ($name)', ({ width, height }) => {
  it('draws the ring where the card does not clip it', async () => {
    const { page } = await site.open({ width, height });
    await page.goto('/photos');
    await page.locator('main li.card').first().waitFor();
    await page.locator('main li.card a').first().focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const ring = await page.evaluate(() => {
      const link = document.activeElement as HTMLElement;
      const card = link.closest('li.card') as HTMLElement;
      const linkStyle = getComputedStyle(link);
      const cardStyle = getComputedStyle(card);
      const width = parseFloat(linkStyle.outlineWidth) || 0;
      const offset = parseFloat(linkStyle.outlineOffset) || 0;
      return {
        isCardLink: link.parentElement === card,
        // A ring on the link is visible when it is drawn inside the link's box or the card does not clip.
        linkRingInside: linkStyle.outlineStyle !== 'none' && width > 0 && offset <= -width,
        cardClips: cardStyle.overflow !== 'visible',
        linkRing: linkStyle.outlineStyle !== 'none' && width > 0,
        cardRing: cardStyle.outlineStyle !== 'none' && (parseFloat(cardStyle.outlineWidth) || 0) > 0,
      };
    });
    expect(ring.isCardLink).toBe(true);
    expect(ring.cardRing || ring.linkRingInside || (ring.linkRing && !ring.cardClips)).toBe(true);
    await page.context().close();
  });
});

describe.each(VIEWPORTS)('Retry after a failed request ($name)', ({ width, height }) => {
  it('reloads a failed listing without reloading the page', async () => {
    const { page } = await site.open({ width, height });
    // Fails until Retry is pressed (a development build of React may ask twice on mount).
    let failing = true;
    await page.route('**/api/photos/1', (route) =>
      failing
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"x"}}' })
        : route.continue(),
    );
    await page.goto('/photos');
    await page.getByText('Error: HTTP error! status: 500').waitFor();
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.locator('main li.card').first().waitFor();
    expect(await page.getByText(/^Error:/).count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await page.context().close();
  });

  it('retries a failed infinite-scroll page on home', async () => {
    const { page } = await site.open({ width, height });
    let failing = true;
    await page.route('**/api/updates/2', (route) => (failing ? route.abort('connectionrefused') : route.continue()));
    await page.goto('/');
    await page.locator('main li.card').first().waitFor();
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await scrollToBottom(page);
    await page.getByText(/^Error: .+/).waitFor();
    // The update columns' cards (the free photo sets above them are cards too).
    expect(await page.locator('main .home-columns li.card').count()).toBe(30);
    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.waitForFunction(() => document.querySelectorAll('main .home-columns li.card').length > 30);
    expect(await page.getByText(/^Error:/).count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await page.context().close();
  });
});
