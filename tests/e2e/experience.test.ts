import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotDir, scrollToBottom, startSite, vodScrolledTo } from './browser';
import { settled } from './quiet';
import type { Site } from './browser';

let site: Site;

beforeAll(async () => {
  site = await startSite();
});

afterAll(async () => {
  await site?.stop();
});

const cardCount = (page: Page) => page.locator('main li.card').count();

describe('infinite scroll', () => {
  it('home loads the next updates page at the bottom', async () => {
    const { page, errors } = await site.open();
    await page.goto('/');
    await page.getByText('Latest Photos').waitFor();
    // The update columns' cards (the free photo sets above them are cards too).
    await page.locator('main .home-columns li.card').first().waitFor();
    const before = await page.locator('main .home-columns li.card').count();
    expect(before).toBe(30);
    const next = page.waitForResponse((response) => response.url().endsWith('/api/updates/2'));
    await scrollToBottom(page);
    await next;
    await page.waitForFunction((count) => document.querySelectorAll('main .home-columns li.card').length > count, before);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('/vod loads the next page when its sentinel comes into view', async () => {
    const { page, errors } = await site.open();
    await page.goto('/vod');
    await page.locator('main li.card').first().waitFor();
    expect(await cardCount(page)).toBe(20);
    const next = page.waitForResponse((response) => response.url().endsWith('/api/vod/2'));
    await scrollToBottom(page);
    await next;
    await page.waitForFunction(() => document.querySelectorAll('main li.card').length > 20);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('/vod comes back to the same scroll position after a detail page', async () => {
    const { page } = await site.open({ width: 1366, height: 700 });
    await vodScrolledTo(page, 900);
    const card = page.locator('main li.card a').nth(12);
    await card.scrollIntoViewIfNeeded();
    const saved = await page.evaluate(() => window.scrollY);
    await card.click();
    await page.waitForURL(/\/vod\/[^/]+$/);
    await page.getByRole('link', { name: /^Buy for/ }).waitFor();
    await page.goBack();
    await page.waitForURL(/\/vod$/);
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) <= 2, saved, { timeout: 15_000 });
    expect(await cardCount(page)).toBeGreaterThan(20);
    await page.context().close();
  });
});

describe('free photo sets', () => {
  it('the footer link leads from any page to the strip on home, scrolled to, pictures loaded', async () => {
    const { page, errors } = await site.open({ width: 1366, height: 700 });
    await page.goto('/links');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Free photo sets' }).click();
    await page.waitForURL(/\/#free-sets$/);
    const strip = page.locator('#free-sets');
    await strip.getByRole('heading', { name: 'Free photo sets' }).waitFor();
    await page.waitForFunction(() => Math.abs(document.getElementById('free-sets')!.getBoundingClientRect().top) <= 2);
    const cards = strip.locator('li.card');
    expect(await cards.count()).toBeGreaterThan(0);
    expect(await cards.first().locator('a').getAttribute('href')).toMatch(/^\/freephotos\/[^/]+$/);
    // Each card's picture is its set's first free photo, rendered card-sized by the media service.
    await page.waitForFunction(() => {
      const images = [...document.querySelectorAll<HTMLImageElement>('#free-sets img')];
      return images.length > 0 && images.every((img) => img.complete && img.naturalWidth > 0);
    });
    expect(await strip.locator('img').first().getAttribute('src')).toMatch(/^\/members\/freephotos\/[^/]+\/[^/]+\?w=640$/);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('age gate', () => {
  it('asks a first-time visitor and remembers the answer', async () => {
    const { page } = await site.open({ ageConfirmed: false });
    await page.goto('/photos');
    await page.getByRole('dialog', { name: 'Adults only' }).waitFor();
    expect(await page.locator('main li.card').count()).toBe(0);
    await page.keyboard.press('Enter');
    await page.locator('main li.card').first().waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('ageConfirmed'))).toBe('true');
    await page.reload();
    await page.locator('main li.card').first().waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.context().close();
  });

  it('leaves /2257 readable without confirming', async () => {
    const { page } = await site.open({ ageConfirmed: false });
    await page.goto('/2257');
    await page.getByText('custodian of records').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.context().close();
  });
});

describe('accessibility', () => {
  it('axe finds no serious or critical violations', async () => {
    const paths = [
      '/',
      '/photos',
      '/vod',
      `/vod/${site.seeded.vod}`,
      '/models',
      '/ccbill',
      '/contact',
      '/join',
      '/affiliates',
      `/search/${encodeURIComponent(site.seeded.model)}`,
    ];
    // Every page at phone width; the pages whose layout changes most also at desktop width.
    const runs = [
      ...paths.map((path) => ({ path, width: 360, ageConfirmed: true })),
      ...['/', '/photos', '/ccbill'].map((path) => ({ path, width: 1366, ageConfirmed: true })),
      { path: '/', width: 360, ageConfirmed: false },
    ];
    const found: string[] = [];
    for (const { path, width, ageConfirmed } of runs) {
      const { page } = await site.open({ width, ageConfirmed });
      await page.goto(path);
      await page.locator('main h1, main h2').first().waitFor();
      await settled(page);
      const result = await new AxeBuilder({ page }).analyze();
      for (const violation of result.violations) {
        if (violation.impact === 'serious' || violation.impact === 'critical') {
          found.push(
            `${path}@${width}: ${violation.id} ${violation.nodes
              .map((node) => node.target.join(' '))
              .slice(0, 3)
              .join(', ')}`,
          );
        }
      }
      await page.context().close();
    }
    expect(found).toEqual([]);
    // Fourteen full-page axe scans take about a minute on an idle two-core machine.
  }, 240_000);

  it('shows a visible focus ring when tabbing', async () => {
    const { page } = await site.open();
    await page.goto('/test');
    await page.getByText('Test Route Match').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
    expect(outline).not.toBe('none');
    await page.context().close();
  });
});

describe('screenshots', () => {
  it('captures home, a gallery, a detail page and /ccbill at phone and desktop widths', async () => {
    const shots: [string, string, string][] = [
      ['home', '/', 'Latest Photos'],
      ['photos', '/photos', 'Uploaded:'],
      ['vod-detail', `/vod/${site.seeded.vod}`, 'Buy for'],
      ['ccbill', '/ccbill', 'Card number'],
    ];
    for (const width of [360, 1366]) {
      for (const [name, path, text] of shots) {
        const { page, errors } = await site.open({ width, height: width === 360 ? 740 : 900 });
        await page.goto(path);
        await page.getByText(text).first().waitFor();
        await settled(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} at ${width}px scrolls sideways`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: join(screenshotDir, `${name}-${width}.png`) });
        expect(errors).toEqual([]);
        await page.context().close();
      }
    }
  });
});
