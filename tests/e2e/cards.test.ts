import { mkdirSync, writeFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { h264Output, makeTestPattern } from '@media-site/encoder/testing-clips';
import { screenshotsOf, siteWithContent, VIEWPORTS, type Viewport } from './browser';

/**
 * The cards: photo sets say how many photos, videos and VODs how long
 * they run; a video card steps through its seek-bar sprite on hover (desktop), never on a touch
 * phone; a model's page opens with a portrait and counts over the listings' cards; search results
 * use the same cards. The demo clips are not encoded here (no sprite), so this ingests one 20 s
 * clip, dated newest, encoded by `ops ingest --wait`. Screenshots:
 * cards-{photos,videos,vod,model,search}-{1280,390}.png and cards-video-hover-1280.png.
 */
const CLIP = 'cards-e2e-clip';
const CLIP_TITLE = 'Cards Preview Clip';
const MODEL = 'Model A1';
const shot = screenshotsOf('cards');

/** What a demo clip's card says: the sample's 2 s, or a showcase clip's 30-60 s. */
const DEMO_DURATION = /^Duration 0:(?:02|[3-5]\d)$/;
const own = siteWithContent('cards-e2e', async (folder) => {
  const dir = join(folder, 'video', CLIP);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'meta.json'),
    JSON.stringify({ updatename: CLIP_TITLE, modelname: MODEL, datetoupload: '2026-11-20', prename: 'V950_CardsClip_HD' }),
  );
  await makeTestPattern(join(dir, 'clip.mp4'), { size: '320x180', seconds: 20, output: h264Output('-f', 'mp4') });
});

/** The facts beside a card's link ("24 photos", "Duration 0:20", "$9.99"), as a screen reader reads them. */
const factsOf = (card: Locator) => card.locator('.badge-fact').allTextContents();
const cardOf = (page: Page, title: string) => page.locator('main li.card', { has: page.getByRole('link', { name: title, exact: true }) });

/** axe's serious and critical findings on the page as it stands. */
async function seriousAxe(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3)}`);
}

/** Every card picture on screen has loaded (no broken or pending thumbnail in the screenshot). */
async function picturesLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('main li.card img')]
      .filter((img) => img.getBoundingClientRect().top < window.innerHeight)
      .every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
  );
}

describe.each(Object.keys(VIEWPORTS) as Viewport[])('cards (%s)', (viewport) => {
  it('listings: photo sets say how many photos, videos and VODs how long they run', async () => {
    const { page, errors } = await own.site.open(VIEWPORTS[viewport]);
    await page.goto('/photos');
    const photoCards = page.locator('main li.card');
    await photoCards.first().waitFor();
    const photoFacts = (await photoCards.locator('.badge-fact').allTextContents()).filter((f) => /photos?$/.test(f));
    expect(photoFacts).toHaveLength(await photoCards.count());
    // The demo sets hold 6 to 12 photos.
    for (const fact of photoFacts) expect(fact).toMatch(/^(?:[6-9]|1[0-2]) photos$/);
    await picturesLoaded(page);
    await shot(page, 'photos', viewport);

    await page.goto('/videos?sort=date');
    const clip = cardOf(page, CLIP_TITLE);
    await clip.waitFor();
    expect(await factsOf(clip)).toEqual(['Duration 0:20']);
    // A demo clip runs 2 s, or 30-60 s for the newest MP4s (the showcase clips): the seed writes which.
    const others = page.locator('main li.card').nth(1);
    expect(await factsOf(others)).toEqual([expect.stringMatching(DEMO_DURATION)]);
    await picturesLoaded(page);
    await shot(page, 'videos', viewport);
    expect(await seriousAxe(page)).toEqual([]);

    await page.goto('/vod');
    const vod = page.locator('main li.card').first();
    await vod.waitFor();
    const vodFacts = await factsOf(vod);
    expect(vodFacts).toHaveLength(2);
    expect(vodFacts[0]).toMatch(/^\$\d+\.\d\d$/);
    expect(vodFacts[1]).toMatch(DEMO_DURATION);
    await picturesLoaded(page);
    await shot(page, 'vod', viewport);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a model’s page: a portrait, the counts, and the listings’ cards with pictures and facts', async () => {
    const { page, errors } = await own.site.open(VIEWPORTS[viewport]);
    const detail = (await (await page.request.get(`/api/modelname/${encodeURIComponent(MODEL)}`)).json()) as Record<
      'photos' | 'videos' | 'vods',
      unknown[]
    >;
    await page.goto(`/models/${encodeURIComponent(MODEL)}`);
    await page.getByRole('heading', { level: 1, name: MODEL }).waitFor();
    const portrait = page.locator('main .model-portrait img');
    await expect.poll(() => portrait.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
    expect(await page.getByRole('list', { name: 'What there is' }).locator('li').allTextContents()).toEqual([
      plural(detail.photos.length, 'photo set', 'photo sets'),
      plural(detail.videos.length, 'video', 'videos'),
      plural(detail.vods.length, 'VOD', 'VODs'),
    ]);
    expect(detail.photos.length).toBeGreaterThan(0);
    const photos = page.locator('main section section', { has: page.getByRole('heading', { name: 'Photos', exact: true }) });
    expect(await photos.locator('li.card').count()).toBe(detail.photos.length);
    expect(await factsOf(photos.locator('li.card').first())).toEqual([expect.stringMatching(/^\d+ photos$/)]);
    expect(await factsOf(cardOf(page, CLIP_TITLE))).toEqual(['Duration 0:20']);
    await picturesLoaded(page);
    await shot(page, 'model', viewport);
    expect(await seriousAxe(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('search results: the listings’ cards, with pictures, facts and the model linked', async () => {
    const { page, errors } = await own.site.open(VIEWPORTS[viewport]);
    await page.goto('/search/cards%20preview');
    const clip = cardOf(page, CLIP_TITLE);
    await clip.waitFor();
    expect(await factsOf(clip)).toEqual(['Duration 0:20']);
    expect(await clip.getByRole('link', { name: MODEL }).getAttribute('href')).toBe(`/models/${encodeURIComponent(MODEL)}`);

    await page.goto(`/search/${encodeURIComponent(MODEL)}`);
    const photos = page.locator('main section section', { has: page.getByRole('heading', { name: 'Photos', exact: true }) });
    await photos.locator('li.card').first().waitFor();
    expect(await factsOf(photos.locator('li.card').first())).toEqual([expect.stringMatching(/^\d+ photos$/)]);
    await picturesLoaded(page);
    await shot(page, 'search', viewport);
    expect(await seriousAxe(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('the sprite preview on a video card', () => {
  it('desktop: nothing asked before the hover; then the sprite steps over the picture in the same box', async () => {
    const { page, errors } = await own.site.open(VIEWPORTS.desktop);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/videopreviews/')) asked.push(new URL(request.url()).pathname);
    });
    await page.goto('/videos?sort=date');
    const card = cardOf(page, CLIP_TITLE);
    await card.waitFor();
    await picturesLoaded(page);
    expect(asked).toEqual([]);
    // A demo clip is not encoded here (the API's preview is null): hovering it asks for nothing.
    await page.locator('main li.card').nth(1).getByRole('link').hover();
    await page.waitForTimeout(300);
    expect(asked).toEqual([]);
    expect(await page.locator('main .card-preview').count()).toBe(0);
    const before = await card.boundingBox();

    await card.getByRole('link', { name: CLIP_TITLE }).hover();
    const preview = card.locator('.card-preview');
    await preview.waitFor();
    expect(asked).toContain(`/members/videopreviews/${CLIP}/thumbs.vtt`);
    const style = () => preview.evaluate((el) => ({ image: el.style.backgroundImage, position: el.style.backgroundPosition }));
    const first = await style();
    expect(first.image).toContain(`/members/videopreviews/${CLIP}/sprite.jpg`);
    await expect.poll(async () => (await style()).position, { timeout: 5000 }).not.toBe(first.position);
    // Over the picture, the same box: nothing moved.
    const picture = await card.locator('.card-picture').boundingBox();
    const over = await preview.boundingBox();
    expect(over).toEqual(picture);
    expect(await card.boundingBox()).toEqual(before);
    await shot(page, 'video-hover', 'desktop');
    expect(await seriousAxe(page)).toEqual([]);

    await page.mouse.move(0, 0);
    await preview.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a touch-only phone: a focused card asks for no sprite', async () => {
    const context = await own.site.browser.newContext({
      baseURL: own.site.stack.baseUrl,
      viewport: VIEWPORTS.phone,
      isMobile: true,
      hasTouch: true,
    });
    await context.addInitScript(() => window.localStorage.setItem('ageConfirmed', 'true'));
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/videopreviews/')) asked.push(request.url());
    });
    await page.goto('/videos?sort=date');
    const link = cardOf(page, CLIP_TITLE).getByRole('link', { name: CLIP_TITLE });
    await link.waitFor();
    expect(await page.evaluate(() => window.matchMedia('(any-hover: hover)').matches)).toBe(false);
    await link.focus();
    await page.waitForTimeout(300);
    expect(asked).toEqual([]);
    expect(await page.locator('main .card-preview').count()).toBe(0);
    await context.close();
  });
});
