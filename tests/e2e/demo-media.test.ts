import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { openPage, screenshotsOf, signInAsDemo, stackWithBrowser, VIEWPORTS, type Viewport } from './browser';
import { settled } from './quiet';

/**
 * Demo media, in Chromium through nginx with the background encoder running: home and
 * a photo set show generated landscapes (not flat fills), and a showcase clip plays from its 720p
 * or 480p rendition, 30-60 s long with sound, with a preview strip. Screenshots:
 * demo-media-{home,set,player}-{390,1280}.png.
 */
const site = stackWithBrowser({ frontDoor: 'nginx', encoder: true });
const shot = screenshotsOf('demo-media');

/** The first video the encoder gave a 720p rendition: a showcase clip (the others are 90p). */
async function encodedShowcase(): Promise<string> {
  const knex = createKnex(site.stack.databaseUrl);
  try {
    const deadline = Date.now() + 240_000;
    for (;;) {
      const rows: { path: string; manifest: string | null }[] = await knex('media_jobs')
        .where({ content_type: 'video', status: 'done' })
        .orderBy('id')
        .select('path', 'manifest');
      const found = rows.find((r) => r.manifest?.includes('"label":"720p"'));
      if (found) return found.path;
      if (Date.now() > deadline) throw new Error('no showcase video encoded within 240 s');
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await knex.destroy();
  }
}

/** Luminance deviation of every loaded image in `main` (drawn at 64x43): a flat fill is near 0. */
function imageDeviations(page: Page): Promise<number[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('main img')]
      .filter((img): img is HTMLImageElement => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0)
      .map((img) => {
        const canvas = document.createElement('canvas');
        canvas.width = 64;
        canvas.height = 43;
        const context = canvas.getContext('2d');
        if (!context) return 0;
        context.drawImage(img, 0, 0, 64, 43);
        const { data } = context.getImageData(0, 0, 64, 43);
        const values: number[] = [];
        for (let i = 0; i < data.length; i += 4) values.push(0.3 * data[i]! + 0.59 * data[i + 1]! + 0.11 * data[i + 2]!);
        const mean = values.reduce((a, b) => a + b, 0) / values.length;
        return Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
      }),
  );
}

/** Once the page is idle: at least two pictures in `main`, every one a generated landscape (far from a flat fill). */
async function expectLandscapes(page: Page, selector: string): Promise<void> {
  await page.locator(selector).first().waitFor();
  await settled(page);
  const deviations = await imageDeviations(page);
  expect(deviations.length).toBeGreaterThanOrEqual(2);
  for (const deviation of deviations) expect(deviation).toBeGreaterThan(8);
}

describe.each(Object.keys(VIEWPORTS) as Viewport[])('demo media (%s)', (viewport) => {
  it('home and a photo set show generated landscapes, not flat fills', async () => {
    const { page, errors } = await openPage(site.browser, site.stack.baseUrl, viewport);
    await page.goto('/');
    await expectLandscapes(page, 'main li.card img');
    await shot(page, 'home', viewport);

    const knex = createKnex(site.stack.databaseUrl);
    const set = (await knex('photosets').orderBy('id').first('path')) as { path: string };
    await knex.destroy();
    await page.goto(`/photos/${set.path}`);
    await expectLandscapes(page, 'main .grid-thumbs img');
    await shot(page, 'set', viewport);
    await page.context().close();
    expect(errors).toEqual([]);
  });

  it('a showcase clip plays from a 720p or 480p rendition, 30-60 s with sound, with a preview strip', { timeout: 300_000 }, async () => {
    const path = await encodedShowcase();
    const { page, errors } = await openPage(site.browser, site.stack.baseUrl, viewport);
    await signInAsDemo(page);
    const view = (await (await page.request.get(`/api/playback/video/${path}`)).json()) as {
      renditions: { label: string; type: string }[];
      thumbnails: string;
    };
    expect(view.renditions.map((r) => r.label)).toEqual(['720p', '480p']);
    // Sound: every rendition carries AAC beside H.264.
    for (const r of view.renditions) expect(r.type).toMatch(/avc1\..*mp4a\.40\.2/);
    const cues = ((await (await page.request.get(view.thumbnails)).text()).match(/-->/g) ?? []).length;
    expect(cues).toBeGreaterThanOrEqual(30);

    await page.goto(`/video/${path}`);
    const video = page.locator('video.player-video');
    await video.waitFor();
    await page.waitForFunction(() => ((document.querySelector('video.player-video') as HTMLVideoElement | null)?.readyState ?? 0) >= 1);
    const state = await video.evaluate((v: HTMLVideoElement) => ({ duration: v.duration, height: v.videoHeight }));
    expect(state.duration).toBeGreaterThanOrEqual(30);
    expect(state.duration).toBeLessThanOrEqual(60);
    expect([480, 720]).toContain(state.height);
    // Halfway in, as a seek would land: the frame there differs from the first one.
    await video.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      v.currentTime = v.duration / 2;
    });
    await page.waitForFunction(() => {
      const v = document.querySelector('video.player-video') as HTMLVideoElement | null;
      return v !== null && !v.seeking && v.readyState >= 2 && v.currentTime > 10;
    });
    await shot(page, 'player', viewport);
    await page.context().close();
    expect(errors).toEqual([]);
  });
});
