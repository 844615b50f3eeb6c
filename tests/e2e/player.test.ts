import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { h264Output, makeTestPattern } from '@media-site/encoder/testing-clips';
import { DEMO_MEMBER } from '@media-site/ops';
import { catalogCli } from '../src/catalog-cli';
import { screenshotDir, screenshotsOf, siteWithContent, VIEWPORTS, type Viewport } from './browser';
import { settled } from './quiet';

// The player through the real nginx, bff and media service. The demo clips are 2 s long, too short
// to seek by keyboard, so this ingests its own: a 24 s `.mpg` video (browsers cannot play the
// original; it plays through its rendition), a 10 s `.wmv` VOD and an 8 s 720p video (two
// renditions, for the quality menu; taken down at the end), encoded by `ops ingest --wait` like an
// operator would. The demo videos stay queued (no encoder runs): "being prepared".
const CLIP = 'player-e2e-clip';
const SHOW = 'player-e2e-show';
const HD = 'player-e2e-hd';
const CLIP_SECONDS = 24;
const shots = screenshotsOf('player');

function makeSource(out: string, seconds: number, output: string[]): Promise<string> {
  return makeTestPattern(out, { size: '320x180', seconds, output });
}

const own = siteWithContent('player-e2e', async (folder) => {
  const video = join(folder, 'video', CLIP);
  const vod = join(folder, 'vod', SHOW);
  const hd = join(folder, 'video', HD);
  for (const dir of [video, vod, hd]) mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(video, 'meta.json'),
    JSON.stringify({ updatename: 'Player Clip', modelname: 'Model A1', datetoupload: '2025-06-01', prename: 'V900_Clip_HD' }),
  );
  writeFileSync(
    join(hd, 'meta.json'),
    JSON.stringify({ updatename: 'Player HD', modelname: 'Model A1', datetoupload: '2025-06-02', prename: 'V901_Hd_HD' }),
  );
  writeFileSync(
    join(vod, 'meta.json'),
    JSON.stringify({
      updatename: 'Player Show',
      modelname: 'Model A1',
      datetoupload: '2025-06-01',
      prename: 'ModelA1_PlayerShow',
      format: 'mpg',
      price: 9.99,
    }),
  );
  await makeSource(join(video, 'clip.mpg'), CLIP_SECONDS, ['-c:v', 'mpeg1video', '-q:v', '4', '-c:a', 'mp2', '-b:a', '128k', '-f', 'mpeg']);
  await makeSource(join(vod, 'show.wmv'), 10, ['-c:v', 'wmv2', '-b:v', '600k', '-c:a', 'wmav2', '-b:a', '96k', '-f', 'asf']);
  await makeTestPattern(join(hd, 'hd.mp4'), { size: '1280x720', seconds: 8, output: h264Output('-f', 'mp4') });
});

async function signIn(page: Page): Promise<void> {
  const res = await page.request.post('/api/login', { data: DEMO_MEMBER, headers: { Origin: own.site.stack.baseUrl } });
  expect(res.status()).toBe(200);
}

const video = (page: Page) => page.locator('video.player-video');
const mediaState = (page: Page) =>
  video(page).evaluate((v: HTMLVideoElement) => ({
    currentTime: v.currentTime,
    readyState: v.readyState,
    paused: v.paused,
    muted: v.muted,
    duration: v.duration,
  }));

/** Waits until the player's video has its metadata (and the stored position applied). */
async function openPlayer(page: Page, path = `/video/${CLIP}`, title = 'Player Clip'): Promise<void> {
  await page.goto(path);
  await page.getByRole('group', { name: `Video player: ${title}` }).waitFor();
  await page.waitForFunction(() => ((document.querySelector('video.player-video') as HTMLVideoElement | null)?.readyState ?? 0) >= 1);
}

/** Keys go to the page itself: nothing focused (the shortcuts are page-wide). */
const focusBody = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
const renditionOf = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.getAttribute('src'));

describe('the member player', () => {
  let page: Page;
  let errors: string[];
  const renditionStatuses: number[] = [];

  beforeAll(async () => {
    ({ page, errors } = await own.site.open());
    page.on('response', (response: Response) => {
      if (response.url().includes(`/members/videorenditions/${CLIP}/`)) renditionStatuses.push(response.status());
    });
    await signIn(page);
  });
  afterAll(async () => {
    await page?.context().close();
  });

  it('plays the .mpg through its rendition, with the poster first and one control bar (no native controls)', async () => {
    await openPlayer(page);
    const attrs = await video(page).evaluate((v: HTMLVideoElement) => ({
      src: v.getAttribute('src'),
      poster: v.getAttribute('poster'),
      playsInline: v.playsInline,
      controls: v.controls,
    }));
    expect(attrs).toEqual({
      src: `/members/videorenditions/${CLIP}/180p.mp4`,
      poster: `/members/videopreviews/${CLIP}/poster.jpg`,
      playsInline: true,
      controls: false,
    });
    expect(await page.locator('video[controls]').count()).toBe(0);
    expect(await page.getByRole('slider', { name: 'Seek' }).count()).toBe(1);
    for (const name of ['Play', 'Mute', 'Full screen']) await page.getByRole('button', { name, exact: true }).waitFor();
    const poster = await page.request.get(attrs.poster!);
    expect(poster.headers()['content-type']).toBe('image/jpeg');
    await page.screenshot({ path: join(screenshotDir, 'player-poster-1366.png') });
    const axe = await new AxeBuilder({ page }).include('.player-section').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

    // k with focus on the page body: play. Space: pause, and the page does not scroll.
    await focusBody(page);
    const page0 = await page.evaluate(() => ({
      y: window.scrollY,
      scrollable: document.documentElement.scrollHeight > window.innerHeight,
    }));
    expect(page0.scrollable).toBe(true);
    await page.keyboard.press('k');
    await page.waitForFunction(() => (document.querySelector('video.player-video') as HTMLVideoElement).currentTime > 1);
    expect((await mediaState(page)).paused).toBe(false);
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    await page.keyboard.press(' ');
    await page.waitForFunction(() => (document.querySelector('video.player-video') as HTMLVideoElement).paused);
    await page.keyboard.press(' ');
    await page.waitForFunction(() => !(document.querySelector('video.player-video') as HTMLVideoElement).paused);
    await page.keyboard.press(' ');
    await page.waitForFunction(() => (document.querySelector('video.player-video') as HTMLVideoElement).paused);
    expect(await page.evaluate(() => window.scrollY)).toBe(page0.y);
    // A click on the picture plays, another pauses.
    await video(page).click();
    await page.waitForFunction(() => !(document.querySelector('video.player-video') as HTMLVideoElement).paused);
    await video(page).click();
    await page.waitForFunction(() => (document.querySelector('video.player-video') as HTMLVideoElement).paused);
  });

  it('seeks to the middle with ranges (206) and shows the frame there', async () => {
    await video(page).evaluate((v: HTMLVideoElement) => {
      v.currentTime = v.duration / 2;
    });
    await page.waitForFunction(() => {
      const v = document.querySelector('video.player-video') as HTMLVideoElement;
      return !v.seeking && v.readyState >= 2 && Math.abs(v.currentTime - v.duration / 2) < 0.5;
    });
    const state = await mediaState(page);
    expect(state.duration).toBeGreaterThan(CLIP_SECONDS - 1);
    expect(state.readyState).toBeGreaterThanOrEqual(2);
    expect(renditionStatuses.length).toBeGreaterThan(0);
    expect(renditionStatuses.every((status) => status === 206)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('seeks 5 s with the arrow keys, mutes with m, full screen with f, page-wide but not while typing', async () => {
    await focusBody(page);
    const y = await page.evaluate(() => window.scrollY);
    const start = (await mediaState(page)).currentTime;
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(
      (t) => Math.abs((document.querySelector('video.player-video') as HTMLVideoElement).currentTime - (t + 5)) < 0.3,
      start,
    );
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(
      (t) => Math.abs((document.querySelector('video.player-video') as HTMLVideoElement).currentTime - (t - 5)) < 0.3,
      start,
    );
    await page.keyboard.press('m');
    expect((await mediaState(page)).muted).toBe(true);
    await page.keyboard.press('m');
    expect((await mediaState(page)).muted).toBe(false);
    expect(await page.evaluate(() => window.scrollY)).toBe(y);
    // f: the player (video and control bar together) full screen, and back; the bar's button too.
    await page.keyboard.press('f');
    await page.waitForFunction(() => document.fullscreenElement?.classList.contains('player-frame') === true);
    expect(await page.getByRole('slider', { name: 'Seek' }).isVisible()).toBe(true);
    await page.keyboard.press('f');
    await page.waitForFunction(() => document.fullscreenElement === null);
    await page.getByRole('button', { name: 'Full screen', exact: true }).click();
    await page.waitForFunction(() => document.fullscreenElement?.classList.contains('player-frame') === true);
    await page.getByRole('button', { name: 'Full screen', exact: true }).click();
    await page.waitForFunction(() => document.fullscreenElement === null);
    // Typing in the search box: the same keys are the field's, and the video is left alone.
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.click();
    const before = (await mediaState(page)).currentTime;
    await page.keyboard.type('m k');
    await page.keyboard.press('ArrowRight');
    const after = await mediaState(page);
    expect(after.currentTime).toBeCloseTo(before, 1);
    expect(after.muted).toBe(false);
    expect(after.paused).toBe(true);
    expect(await search.inputValue()).toBe('m k');
    await search.fill('');
    await focusBody(page);
  });

  it('shows the sprite frame for the time under the pointer on the seek strip', async () => {
    const box = (await page.getByRole('slider', { name: 'Seek' }).locator('.player-seekbar-track').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
    const frame = page.locator('.player-preview-frame');
    await frame.waitFor();
    const style = await frame.evaluate((el: HTMLElement) => ({
      image: el.style.backgroundImage,
      position: el.style.backgroundPosition,
      width: el.offsetWidth,
    }));
    expect(style.image).toContain(`/members/videopreviews/${CLIP}/sprite.jpg`);
    expect(style.position).not.toBe('0px 0px');
    expect(style.width).toBeGreaterThan(0);
    expect(await page.locator('.player-preview-time').textContent()).toBe('0:18');
    // The sprite itself is public and loads.
    const sprite = await page.evaluate(
      (url) =>
        new Promise<number>((resolve) => {
          const img = new Image();
          img.onload = () => resolve(img.naturalWidth);
          img.onerror = () => resolve(0);
          img.src = url;
        }),
      `/members/videopreviews/${CLIP}/sprite.jpg`,
    );
    expect(sprite).toBeGreaterThan(0);
    await page.screenshot({ path: join(screenshotDir, 'player-preview-hover-1366.png') });
    // A click on the strip seeks there.
    await page.mouse.click(box.x + box.width * 0.25, box.y + box.height / 2);
    await page.waitForFunction(() => Math.abs((document.querySelector('video.player-video') as HTMLVideoElement).currentTime - 6) < 0.6);
    await page.mouse.move(0, 0);
  });

  it('remembers the position server-side: back there after a reload, and listed under Continue watching', async () => {
    await focusBody(page);
    await page.keyboard.press('k');
    await page.waitForFunction(() => !(document.querySelector('video.player-video') as HTMLVideoElement).paused);
    const saved = page.waitForResponse(
      (r) =>
        r.url().endsWith(`/api/positions/video/${CLIP}`) &&
        r.request().method() === 'PUT' &&
        Number(JSON.parse(r.request().postData() ?? '{}').seconds) > 11.5,
    );
    await video(page).evaluate((v: HTMLVideoElement) => {
      v.pause();
      v.currentTime = 12;
    });
    expect((await saved).status()).toBe(200);
    // (The page never reads the PUT's body, so ask the API what it stored.)
    const stored = (await (await page.request.get(`/api/positions/video/${CLIP}`)).json()) as { seconds: number; completed: boolean };
    expect(stored.seconds).toBeCloseTo(12, 0);
    expect(stored.completed).toBe(false);

    await page.reload();
    await page.getByText(/^Resumed at 0:1[12]/).waitFor();
    const state = await mediaState(page);
    expect(Math.abs(state.currentTime - stored.seconds)).toBeLessThan(0.5);
    expect(state.paused).toBe(true);

    await page.goto('/');
    const row = page.getByRole('region', { name: 'Continue watching' });
    await row.getByRole('link', { name: 'Player Clip' }).waitFor();
    await settled(page);
    await page.screenshot({ path: join(screenshotDir, 'home-continue-watching-1366.png') });
    await row.getByRole('link', { name: 'Player Clip' }).click();
    await page.waitForURL(`**/video/${CLIP}`);
    await page.getByText(/^Resumed at 0:1[12]/).waitFor();
    expect(errors).toEqual([]);
  });

  it('plays the MP4 original of a video not encoded yet, says so, and keeps Download', async () => {
    await page.goto(`/video/${own.site.seeded.video}`);
    await page.getByText('The player plays the original file while this video is prepared in smaller sizes.').waitFor();
    expect(await page.locator('video.player-video').getAttribute('src')).toMatch(/^\/members\/video\/[^/]+\/[^/]+\.mp4$/);
    await focusBody(page);
    await page.keyboard.press('k');
    await page.waitForFunction(() => (document.querySelector('video.player-video') as HTMLVideoElement).currentTime > 0.5);
    await page.getByRole('button', { name: 'Download' }).waitFor();
    await page.screenshot({ path: join(screenshotDir, 'player-original-1366.png') });
  });

  it('says a video whose original is not an MP4 is being prepared, with no player', async () => {
    await page.goto(`/video/${own.site.seeded.mpegVideo}`);
    await page.getByText(/This video is being prepared for playback/).waitFor();
    expect(await page.locator('video.player-video').count()).toBe(0);
  });

  it('reports how playback went when the player goes: the first frame, in one beacon the bff takes', async () => {
    // What the beacons carry (a beacon's Blob body is not in Playwright's request): kept in the page, then sent as they were.
    await page.addInitScript(() => {
      const send = navigator.sendBeacon.bind(navigator);
      const sent: string[] = ((window as unknown as { beacons: string[] }).beacons = []);
      navigator.sendBeacon = (url, data) => {
        if (data instanceof Blob) void data.text().then((text) => sent.push(text));
        return send(url, data);
      };
    });
    await openPlayer(page);
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/player/reports') && r.method() === 'POST');
    await focusBody(page);
    await page.keyboard.press('k');
    await page.waitForFunction(() => (document.querySelector('video.player-video') as HTMLVideoElement).currentTime > 0.5);
    // Leaving the player inside the app unmounts it, which sends what it measured.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Videos' }).click();
    const request = await sent;
    expect((await request.response())?.status()).toBe(204);
    await page.waitForFunction(() => (window as unknown as { beacons: string[] }).beacons.length === 1);
    const [body] = await page.evaluate(() => (window as unknown as { beacons: string[] }).beacons);
    const { events } = JSON.parse(body!) as { events: Array<Record<string, unknown>> };
    expect(events[0]).toEqual({ kind: 'start', rendition: 180, ms: expect.any(Number) });
    expect(events.every((e) => e.kind !== 'error')).toBe(true);
  });

  it('shows a member without the VOD its trailer and why the show is not here', async () => {
    await page.goto(`/vod/${SHOW}`);
    await page.getByText('This is the trailer. Buy this VOD to watch all of it.').waitFor();
    await page.waitForFunction(() => ((document.querySelector('video.player-trailer') as HTMLVideoElement | null)?.currentTime ?? 0) > 0.2);
  });
});

describe('visitors', () => {
  it('see the muted looping trailer and the join prompt, and no rendition is fetched', async () => {
    const { page, errors } = await own.site.open();
    const members: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('renditions/')) members.push(request.url());
    });
    await page.goto(`/video/${CLIP}`);
    await page.getByText('This video is for members.').waitFor();
    const trailer = page.locator('video.player-trailer');
    const attrs = await trailer.evaluate((v: HTMLVideoElement) => ({
      src: v.getAttribute('src'),
      muted: v.muted,
      loop: v.loop,
      playsInline: v.playsInline,
    }));
    expect(attrs).toEqual({ src: `/members/videopreviews/${CLIP}/trailer.mp4`, muted: true, loop: true, playsInline: true });
    await page.waitForFunction(() => (document.querySelector('video.player-trailer') as HTMLVideoElement).currentTime > 0.2);
    await page.getByRole('link', { name: 'Join to watch' }).waitFor();
    expect(await page.locator('.locked-notice').getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      `/login?next=${encodeURIComponent(`/video/${CLIP}`)}`,
    );
    expect(await page.locator('video.player-video:not(.player-trailer)').count()).toBe(0);
    expect(members).toEqual([]);
    await page.screenshot({ path: join(screenshotDir, 'player-visitor-1366.png') });
    const axe = await new AxeBuilder({ page }).include('.player-section').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('on a phone', () => {
  it('fits the width (no sideways scroll) and plays inline', async () => {
    const { page, errors } = await own.site.open({ width: 360, height: 740 });
    await signIn(page);
    await openPlayer(page);
    const layout = await page.evaluate(() => {
      const v = document.querySelector('video.player-video') as HTMLVideoElement;
      const box = v.getBoundingClientRect();
      return {
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        left: box.left,
        right: box.right,
        width: window.innerWidth,
        playsInline: v.playsInline,
      };
    });
    expect(layout.overflow).toBeLessThanOrEqual(0);
    expect(layout.left).toBeGreaterThanOrEqual(0);
    expect(layout.right).toBeLessThanOrEqual(layout.width);
    expect(layout.playsInline).toBe(true);
    const start = (await mediaState(page)).currentTime;
    await focusBody(page);
    await page.keyboard.press('k');
    await page.waitForFunction((t) => (document.querySelector('video.player-video') as HTMLVideoElement).currentTime > t + 0.5, start);
    await page.screenshot({ path: join(screenshotDir, 'player-phone-360.png') });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('the control bar at both sizes, quality memory and a takedown mid-play', () => {
  const pages = new Map<Viewport, Page>();
  const errorsOf = new Map<Viewport, string[]>();

  beforeAll(async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const { page, errors } = await own.site.open(VIEWPORTS[viewport]);
      await signIn(page);
      pages.set(viewport, page);
      errorsOf.set(viewport, errors);
    }
  });
  afterAll(async () => {
    for (const page of pages.values()) await page.context().close();
  });

  it.each(['desktop', 'phone'] as const)(
    '%s: one bar with named buttons, 44 px touch targets on a phone, no sideways scroll',
    async (viewport) => {
      const page = pages.get(viewport)!;
      await openPlayer(page, `/video/${HD}`, 'Player HD');
      const bar = page.locator('.player-controls');
      const buttons = await bar
        .getByRole('button')
        .evaluateAll((els) => els.map((el) => ({ name: el.getAttribute('aria-label'), height: el.getBoundingClientRect().height })));
      expect(buttons.map((b) => b.name)).toEqual(
        expect.arrayContaining(['Play', 'Mute', 'Full screen', expect.stringMatching(/^Quality: /)]),
      );
      if (viewport === 'phone') expect(Math.min(...buttons.map((b) => b.height))).toBeGreaterThanOrEqual(44);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      // The box is the picture's own shape: no black bars beside a 16:9 video on a laptop.
      const shape = await page
        .locator('video.player-video')
        .evaluate((v: HTMLVideoElement) => ({ box: v.clientWidth / v.clientHeight, picture: v.videoWidth / v.videoHeight }));
      expect(Math.abs(shape.box / shape.picture - 1)).toBeLessThan(0.02);
      const axe = await new AxeBuilder({ page }).include('.player-section').analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
      await shots(page, 'bar', viewport);
    },
  );

  it('remembers the picked quality: the next visit opens at it', async () => {
    const page = pages.get('desktop')!;
    // At 1280 px the automatic pick is 720p.
    expect(await renditionOf(page)).toBe(`/members/videorenditions/${HD}/720p.mp4`);
    await page.getByRole('button', { name: 'Quality: 720p' }).click();
    await page.getByRole('menu', { name: 'Quality' }).waitFor();
    await shots(page, 'quality-menu', 'desktop');
    await page.getByRole('menuitemradio', { name: '480p' }).click();
    await page.waitForFunction(() => document.querySelector('video.player-video')?.getAttribute('src')?.endsWith('/480p.mp4') === true);
    expect(await page.evaluate(() => window.localStorage.getItem('player.quality'))).toBe('480');
    await openPlayer(page, `/video/${HD}`, 'Player HD');
    expect(await renditionOf(page)).toBe(`/members/videorenditions/${HD}/480p.mp4`);
    await page.getByRole('button', { name: 'Quality: 480p' }).waitFor();
    // A video without 480p: the nearest lower one (its only rendition, 180p).
    await openPlayer(page);
    expect(await renditionOf(page)).toBe(`/members/videorenditions/${CLIP}/180p.mp4`);

    const phone = pages.get('phone')!;
    await phone.getByRole('button', { name: /^Quality: / }).click();
    await phone.getByRole('menu', { name: 'Quality' }).waitFor();
    await shots(phone, 'quality-menu', 'phone');
    await phone.keyboard.press('Escape');
    await phone.getByRole('menu', { name: 'Quality' }).waitFor({ state: 'detached' });
  });

  it('says "This video is no longer available." when the video is taken down while it plays', async () => {
    // A fresh desktop context: its first pick (720p) is what it has fetched, so the switch below goes
    // to the server; the phone has fetched only its automatic 480p.
    await pages.get('desktop')!.context().close();
    const opened = await own.site.open(VIEWPORTS.desktop);
    await signIn(opened.page);
    pages.set('desktop', opened.page);
    errorsOf.set('desktop', opened.errors);
    const phone = pages.get('phone')!;
    const desktop = opened.page;
    await openPlayer(desktop, `/video/${HD}`, 'Player HD');
    for (const page of [desktop, phone]) {
      // Before: the page offers the download sizes, the original and the frames.
      expect(await page.locator('main').locator('.download-choices, .grid-frames').count()).toBe(2);
      await page.locator('main').getByRole('button', { name: 'Download', exact: true }).waitFor();
      await focusBody(page);
      await page.keyboard.press('k');
      await page.waitForFunction(() => !(document.querySelector('video.player-video') as HTMLVideoElement).paused);
    }
    const down = await catalogCli(own.site.stack, 'takedown', `/video/${HD}`, '--by', 'ops', '--reason', 'player e2e');
    expect(down.code, `${down.out}\n${down.err}`).toBe(0);
    // The media service picks the list up at its next poll.
    await expect
      .poll(
        async () => (await desktop.request.get(`/members/videorenditions/${HD}/720p.mp4`, { headers: { Range: 'bytes=0-0' } })).status(),
        {
          timeout: 20_000,
          interval: 200,
        },
      )
      .toBe(410);
    // An 8 s clip is buffered whole at once; the next request for the file is the other quality.
    for (const [viewport, page] of [
      ['desktop', desktop],
      ['phone', phone],
    ] as const) {
      const other = (await renditionOf(page))?.endsWith('/720p.mp4') ? '480p' : '720p';
      await page.getByRole('button', { name: /^Quality: / }).click();
      await page.getByRole('menuitemradio', { name: other }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'This video is no longer available.' });
      await alert.waitFor();
      expect(await alert.getByRole('link', { name: 'Back to videos' }).getAttribute('href')).toBe('/videos');
      expect((await mediaState(page)).paused).toBe(true);
      // What would answer 410 goes with the player: no Download button, no download sizes, no frames.
      const main = page.locator('main');
      for (const gone of [main.getByRole('button', { name: 'Download', exact: true }), main.locator('.download-choices, .grid-frames')])
        await expect.poll(() => gone.count()).toBe(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shots(page, 'taken-down', viewport);
      // No page errors beyond the failed media request itself.
      expect(errorsOf.get(viewport)!.filter((e) => !/410|Failed to load resource/.test(e))).toEqual([]);
    }
  });
});
