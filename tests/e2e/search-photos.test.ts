import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { runOpsCommand } from '@media-site/ops/cli';
import { screenshotDir, startSite, type Site } from './browser';

// Search (folds diacritics, any word order, thumbnails and model links), access on photos and
// videos (a visitor gets the lock, never a broken image or raw JSON), set and video pages with
// title/model/date/count, and the members' photo viewer. On a desktop and a phone.
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const MEMBER = 'e2e_viewer';
const PASSWORD = 'viewer password 1';

let site: Site;
// The demo seed's set "Urban Flex" (Émilie Z3) and video "Iron Flex" (Mara S6).
let set: { path: string; updatename: string; modelname: string; datetoupload: string; count: number };
let video: { path: string; updatename: string };

beforeAll(async () => {
  site = await startSite();
  const knex = createKnex(site.stack.databaseUrl);
  try {
    const row = await knex('photosets').where({ updatename: 'Urban Flex' }).first('id', 'path', 'updatename', 'modelname', 'datetoupload');
    const count = await knex('photoset_files').where({ photoset_id: row.id }).count({ n: '*' }).first();
    set = {
      path: row.path,
      updatename: row.updatename,
      modelname: row.modelname,
      datetoupload: String(row.datetoupload),
      count: Number(count?.n),
    };
    video = await knex('videos').where({ updatename: 'Iron Flex' }).first('path', 'updatename');
    const ops = (args: string[]) => runOpsCommand(args, { env: {}, knex, out: () => {}, err: () => {} });
    expect(await ops(['member', 'add', MEMBER, '--password', PASSWORD, '--days', '30'])).toBe(0);
    // The filters' walk: "Iron Flex" runs 25 minutes and it and "Urban Flex" share a tag no demo
    // item has, set through the operator's CLI (which moves the catalog generation).
    await knex('videos').where({ path: video.path }).update({ duration: 1500 });
    expect(await ops(['catalog', 'edit', `/video/${video.path}`, '--tags', 'Night Drive, studio'])).toBe(0);
    expect(await ops(['catalog', 'edit', `/photos/${set.path}`, '--tags', 'night drive'])).toBe(0);
  } finally {
    await knex.destroy();
  }
  expect(set.count).toBeGreaterThanOrEqual(4);
}, 240_000);

afterAll(async () => {
  await site?.stop();
});

/** A screenshot for the record, and axe over the same page: every violation, whatever its impact. */
async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshotDir, `search-photos-${name}.png`), fullPage: false });
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations.map(
      (v) =>
        `${name}: ${v.id} (${v.impact}) ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    ),
  ).toEqual([]);
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(MEMBER);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Images on the page that finished loading without an image (a broken image icon). */
const brokenImages = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main img')]
      .filter((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth === 0)
      .map((img) => (img as HTMLImageElement).src),
  );

/** The search page's query, its parameters in name order (the page keeps its own order). */
const filterQuery = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}?${[...url.searchParams]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')}`;
};

async function resultTitles(page: Page, group: string): Promise<string[]> {
  const section = page.locator('main section section', { has: page.getByRole('heading', { name: group, exact: true }) });
  await section.waitFor();
  return section.locator('.card-title').allTextContents();
}

describe.each(VIEWPORTS)('search and photos at $name $width×$height', ({ name, width, height }) => {
  it('search ignores accents and word order, and shows thumbnails and model links', async () => {
    const { page, errors } = await site.open({ width, height });
    await page.goto(`/search/${encodeURIComponent('Émilie')}`);
    const accented = await resultTitles(page, 'Photos');
    expect(accented).toContain('Urban Flex');

    await page.goto('/search/emilie');
    expect(await resultTitles(page, 'Photos')).toEqual(accented);
    const hit = page.locator('main .card', { hasText: 'Urban Flex' });
    await expect.poll(() => hit.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await hit.getByRole('link', { name: 'Émilie Z3' }).getAttribute('href')).toBe(`/models/${encodeURIComponent('Émilie Z3')}`);
    await shot(page, `search-emilie-${name}`);

    await page.goto('/search/mara%20flex');
    const forward = await resultTitles(page, 'Videos');
    expect(forward).toContain('Iron Flex');
    await page.goto('/search/flex%20mara');
    expect(await resultTitles(page, 'Videos')).toEqual(forward);
    await shot(page, `search-flex-mara-${name}`);

    await page.goto(`/search/${encodeURIComponent('a b c d e f g h i')}`);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Search term must be at most 8 words.');
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await page.context().close();
  });

  it('an item’s tag leads to everything tagged so, narrowed by type and length, with counts', async () => {
    const { page, errors } = await site.open({ width, height });
    await page.goto(`/video/${video.path}`);
    const tags = page.getByRole('list', { name: 'Tags' });
    await expect.poll(() => tags.getByRole('link').allTextContents(), { timeout: 15_000 }).toEqual(['#night drive', '#studio']);
    await tags.getByRole('link', { name: '#night drive' }).click();
    await expect.poll(() => filterQuery(page)).toBe('/search?tag=night drive');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Tagged “night drive”');
    await expect.poll(() => resultTitles(page, 'Photos')).toEqual(['Urban Flex']);
    await expect.poll(() => resultTitles(page, 'Videos')).toEqual(['Iron Flex']);
    const filters = page.locator('main .search-filters');
    // A phone folds the toggles behind "Filters"; a desktop shows them.
    const toggle = filters.getByRole('button', { name: /^Filters/ });
    expect(await toggle.isVisible()).toBe(width < 768);
    if (width < 768) await toggle.click();
    expect(await filters.getByRole('group', { name: 'Show' }).getByRole('button').allTextContents()).toEqual([
      'All',
      'Photos (1)',
      'Videos (1)',
      'VOD (0)',
    ]);
    await shot(page, `search-tag-${name}`);

    // 10–30 minutes: the video stays, the set (no running time) goes; the counts follow.
    await filters.getByRole('button', { name: '10–30 min (1)' }).click();
    await expect.poll(() => filterQuery(page)).toBe('/search?duration=medium&tag=night drive');
    await expect.poll(() => page.locator('main section section', { hasText: 'Photos' }).textContent()).toContain('No matches.');
    await expect.poll(() => resultTitles(page, 'Videos')).toEqual(['Iron Flex']);
    await expect.poll(() => filters.getByRole('button', { name: /^Photos/ }).textContent()).toBe('Photos (0)');
    expect(await filters.getByRole('button', { name: '10–30 min (1)' }).getAttribute('aria-pressed')).toBe('true');
    await filters.getByRole('button', { name: 'Under 10 min (0)' }).click();
    await expect.poll(() => filterQuery(page)).toBe('/search?duration=short&tag=night drive');
    await expect.poll(() => page.locator('main section section', { hasText: 'Videos' }).textContent()).toContain('No matches.');

    // Only videos, sorted longest first, then everything cleared but the sort.
    await filters.getByRole('button', { name: 'Any length' }).click();
    await filters.getByRole('button', { name: 'Videos (1)' }).click();
    await expect.poll(() => filterQuery(page)).toBe('/search?tag=night drive&type=videos');
    await expect.poll(() => page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Videos']);
    await filters.getByLabel('Sorted by').selectOption('longest');
    await expect.poll(() => filterQuery(page)).toBe('/search?sort=longest&tag=night drive&type=videos');
    await expect.poll(() => resultTitles(page, 'Videos')).toEqual(['Iron Flex']);
    await shot(page, `search-filtered-${name}`);
    await filters.getByRole('button', { name: 'Clear filters (2)' }).click();
    await expect.poll(() => filterQuery(page)).toBe('/search?sort=longest');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Search');
    await page.getByText('Search titles and model names with the search box').waitFor();

    // A term with a filter: "iron" among the tagged items.
    await page.goto(`/search/iron?tag=${encodeURIComponent('night drive')}`);
    await expect.poll(() => resultTitles(page, 'Videos')).toEqual(['Iron Flex']);
    await expect.poll(() => resultTitles(page, 'Photos')).toEqual([]);
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await page.context().close();
  });

  it('a visitor sees the set’s title, model, date and count, and the lock instead of a broken photo', async () => {
    const { page, errors } = await site.open({ width, height });
    await page.goto(`/photos/${set.path}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(set.updatename);
    const meta = page.locator('main .item-meta');
    expect(await meta.textContent()).toBe(`${set.modelname} · Uploaded: ${set.datetoupload} · ${set.count} photos`);
    expect(await meta.getByRole('link', { name: set.modelname }).getAttribute('href')).toBe(`/models/${encodeURIComponent(set.modelname)}`);
    const notice = page.locator('main .locked-notice');
    await notice.getByRole('link', { name: 'Join to see the full set' }).waitFor();
    await notice.getByRole('link', { name: 'Sign in' }).waitFor();
    await page
      .locator('main .grid-thumbs img')
      .first()
      .evaluate((img) => (img as HTMLImageElement).decode());
    await shot(page, `set-visitor-${name}`);

    const thumb = page.locator('main .grid-thumbs a').nth(1);
    const photoHref = (await thumb.getAttribute('href'))!;
    expect(photoHref).toMatch(new RegExp(`^/members/photos/${set.path}/[^/]+$`));
    await thumb.click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(set.updatename);
    await page.locator('main .locked-notice').waitFor();
    expect(await page.locator('main .item-meta').textContent()).toBe(`Photo 2 of ${set.count} · ${set.modelname}`);
    expect(new URL(page.url()).pathname).toBe(photoHref);
    expect(await page.locator('main').getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      `/login?next=${encodeURIComponent(photoHref)}`,
    );
    expect(await page.getByRole('link', { name: 'Join to see the full set' }).count()).toBe(1);
    expect(await brokenImages(page)).toEqual([]);
    expect(await page.locator('main').textContent()).not.toContain('"error"');
    await page.locator('main .locked-preview img').evaluate((img) => (img as HTMLImageElement).decode());
    await shot(page, `photo-locked-visitor-${name}`);

    // Opening the photo's address itself (a reload, a pasted link) is its viewer page with the lock,
    // never raw JSON; the same address asked for by anything but a page (curl) is the file's refusal.
    const direct = await page.goto(photoHref);
    expect(direct?.status()).toBe(200);
    expect(direct?.headers()['content-type']).toMatch(/^text\/html/);
    expect(new URL(page.url()).pathname).toBe(photoHref);
    await page.locator('main .locked-notice').waitFor();
    expect(await page.locator('main .item-meta').textContent()).toBe(`Photo 2 of ${set.count} · ${set.modelname}`);
    const refused = await fetch(new URL(photoHref, site.stack.baseUrl));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    // A photo the set does not have: not found (and not for search engines), not the set's teaser.
    await page.goto(`/members/photos/${set.path}/nope.jpg`);
    await page.getByText('This set has no photo nope.jpg.').waitFor();
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await page.getByRole('link', { name: 'Join to see the full set' }).count()).toBe(0);

    await page.goto(`/video/${video.path}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(video.updatename);
    await page.locator('main .locked-notice').getByRole('link', { name: 'Join to watch and download' }).waitFor();
    expect(await page.getByRole('button', { name: 'Download' }).count()).toBe(0);
    await shot(page, `video-visitor-${name}`);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a member views full photos: fits the screen, arrows, swipe, counter, back to the set; downloads a video by signed link', async () => {
    const { page, errors } = await site.open({ width, height });
    await signIn(page);
    await page.goto(`/photos/${set.path}`);
    await page.locator('main .grid-thumbs a').first().waitFor();
    expect(await page.locator('main .locked-notice').count()).toBe(0);
    await page.locator('main .grid-thumbs a').nth(2).click();
    const counter = page.locator('main .photo-viewer-counter');
    await expect.poll(() => counter.textContent()).toBe(`Photo 3 / ${set.count}`);
    const photo = page.locator('main .photo-viewer-stage img');
    await expect.poll(() => photo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    const box = (await photo.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(height);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    await shot(page, `viewer-member-${name}`);

    await page.keyboard.press('ArrowRight');
    await expect.poll(() => counter.textContent()).toBe(`Photo 4 / ${set.count}`);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => counter.textContent()).toBe(`Photo 3 / ${set.count}`);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => counter.textContent()).toBe(`Photo 2 / ${set.count}`);

    // A swipe to the left shows the next photo, to the right the previous one.
    const swipe = (dx: number) =>
      page.locator('main .photo-viewer-stage').evaluate((stage, delta) => {
        const at = (x: number) => new Touch({ identifier: 1, target: stage, clientX: x, clientY: 300 });
        stage.dispatchEvent(new TouchEvent('touchstart', { bubbles: true, touches: [at(200)], changedTouches: [at(200)] }));
        stage.dispatchEvent(new TouchEvent('touchend', { bubbles: true, touches: [], changedTouches: [at(200 + delta)] }));
      }, dx);
    await swipe(-120);
    await expect.poll(() => counter.textContent()).toBe(`Photo 3 / ${set.count}`);
    await swipe(120);
    await expect.poll(() => counter.textContent()).toBe(`Photo 2 / ${set.count}`);

    // The viewer's own address: a reload (or a shared link) is the viewer again, not the bare JPEG,
    // while curl with the member's cookies gets the JPEG; each answer says it varies on the request's kind.
    const viewerUrl = page.url();
    const reloaded = await page.reload();
    expect(reloaded?.headers()['content-type']).toMatch(/^text\/html/);
    expect(reloaded?.headers()['vary']).toMatch(/Sec-Fetch-Dest/);
    await expect.poll(() => counter.textContent()).toBe(`Photo 2 / ${set.count}`);
    await expect.poll(() => photo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const headers = execFileSync('curl', ['-sS', '-D', '-', '-o', '/dev/null', '-H', `Cookie: ${cookie}`, viewerUrl], { encoding: 'utf8' });
    expect(headers).toMatch(/^HTTP\/1\.1 200/);
    expect(headers).toMatch(/^content-type: image\/jpeg/im);
    expect(headers).toMatch(/^vary: .*Sec-Fetch-Dest/im);
    // Escape closes the viewer: back to the set.
    await page.keyboard.press('Escape');
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/photos/${set.path}`);
    await page.goBack();
    await expect.poll(() => counter.textContent()).toBe(`Photo 2 / ${set.count}`);

    await page.getByRole('link', { name: /Back to the set/ }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(set.updatename);

    // The whole set as one ZIP through a signed link, resumable through the front door.
    await shot(page, `set-member-${name}`);
    // The download is awaited with the click that starts it: no wait is left behind if a step fails.
    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the set (ZIP)' }).click()]);
    expect(zip.suggestedFilename()).toBe(`${set.path}.zip`);
    const zipUrl = zip.url();
    await zip.cancel();
    const whole = await fetch(zipUrl);
    expect(whole.status).toBe(200);
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.readUInt32LE(bytes.length - 22)).toBe(0x06054b50);
    expect(bytes.readUInt16LE(bytes.length - 12)).toBe(set.count);
    const tail = await fetch(zipUrl, { headers: { Range: 'bytes=1000-', 'If-Range': String(whole.headers.get('etag')) } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(1000))).toBe(true);

    await page.goto(`/video/${video.path}`);
    await page.getByRole('button', { name: 'Download' }).waitFor();
    await shot(page, `video-member-${name}`);
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
    expect(file.url()).toMatch(/\/members\/video\/[^?]+\?.*sig=/);
    await file.cancel();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
