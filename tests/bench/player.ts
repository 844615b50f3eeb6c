/**
 * npm run bench:player — time to first frame and seek-to-frame at the middle of a ≥ 300 MB MP4
 * (bench:big-mp4: 313 MiB, 1080p, 130 s, faststart) in Chromium, side by side:
 *
 *   static      nginx serving the file as a plain static file (the anchor)
 *   front door  the same bytes as a member rendition, /members/videorenditions/… through the repo's
 *               nginx → media service (member cookie, access check, X-Accel-Redirect offload)
 *   player      the member's player page /video/{folder} (the SPA's <video preload="metadata">):
 *               pressing k until the first frame, then a seek to the middle
 *
 * Each sample is a fresh browser context (empty cache). Bare <video> rows: muted, preload none,
 * play() → first frame (requestVideoFrameCallback), then currentTime = duration / 2 → the first
 * frame there. Goal: < 500 ms each through the front door. BENCH_RUNS (default 7)
 * samples per row; the medians and p90s print with the ratio front door / static. Loopback on a
 * shared two-core machine: run it twice and compare.
 */
import { linkSync, mkdirSync, copyFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { createKnex } from '@media-site/db';
import type { Manifest } from '@media-site/db/encode';
import { DEMO_MEMBER } from '@media-site/ops';
import { launchChromium } from '../src/chromium';
import { startNginx } from '../src/nginx';
import { startStack } from '../src/stack';
import { ensureBigMp4 } from './big-mp4';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
/** Ports of this bench's own servers (the stack picks free ones). */
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 44100);

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? NaN;
const ms = (x: number) => `${x.toFixed(0).padStart(5)} ms`;

function hardLinkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

interface Sample {
  ttff: number;
  seek: number;
}

/** In the page: a bare <video>, play → first frame, then seek to the middle → first frame there. */
async function bareVideo(page: Page, src: string): Promise<Sample> {
  return page.evaluate(async (url) => {
    const frame = (v: HTMLVideoElement) => new Promise<number>((done) => v.requestVideoFrameCallback((now) => done(now)));
    const v = document.createElement('video');
    v.muted = true;
    v.playsInline = true;
    v.preload = 'none';
    v.style.width = '640px';
    document.body.append(v);
    v.src = url;
    const t0 = performance.now();
    const first = frame(v);
    await v.play();
    const ttff = (await first) - t0;
    v.pause();
    const t1 = performance.now();
    const there = frame(v);
    v.currentTime = v.duration / 2;
    const seek = (await there) - t1;
    v.remove();
    return { ttff, seek };
  }, src);
}

/** The member's player page: metadata is loaded on arrival; from pressing k to the first frame. */
async function playerPage(page: Page, path: string): Promise<Sample> {
  await page.goto(path);
  const group = page.getByRole('group', { name: /^Video player:/ });
  await group.waitFor();
  await page.waitForFunction(() => ((document.querySelector('video.player-video') as HTMLVideoElement | null)?.readyState ?? 0) >= 1);
  await page.evaluate(() => {
    const v = document.querySelector('video.player-video') as HTMLVideoElement;
    v.muted = true;
    const w = window as unknown as { pressedAt: number; firstFrame: Promise<number> };
    // Capture phase: runs before the player's own handler calls play().
    document.addEventListener(
      'keydown',
      () => {
        w.pressedAt = performance.now();
        w.firstFrame = new Promise((done) => v.requestVideoFrameCallback((now) => done(now)));
      },
      { capture: true, once: true },
    );
  });
  await group.focus();
  await page.keyboard.press('k');
  const ttff = await page.evaluate(async () => {
    const w = window as unknown as { pressedAt: number; firstFrame: Promise<number> };
    return (await w.firstFrame) - w.pressedAt;
  });
  const seek = await page.evaluate(async () => {
    const v = document.querySelector('video.player-video') as HTMLVideoElement;
    v.pause();
    const t1 = performance.now();
    const there = new Promise<number>((done) => v.requestVideoFrameCallback((now) => done(now)));
    v.currentTime = v.duration / 2;
    return (await there) - t1;
  });
  return { ttff, seek };
}

async function main(): Promise<void> {
  const big = await ensureBigMp4();
  const bytes = statSync(big).size;
  const work = await mkdtemp(join(tmpdir(), 'bench-player-'));
  const stack = await startStack({ frontDoor: 'nginx' });
  let browser: Browser | undefined;
  let staticNginx: Awaited<ReturnType<typeof startNginx>> | undefined;
  try {
    // The fixture becomes the 1080p rendition of the first demo video (as if the encoder had made it).
    const knex = createKnex(stack.databaseUrl);
    let folder: string;
    try {
      folder = String((await knex('videos').orderBy('id').first('path')).path);
      const dir = join(stack.mediaRoot, 'videorenditions', folder);
      mkdirSync(dir, { recursive: true });
      hardLinkOrCopy(big, join(dir, '1080p.mp4'));
      const manifest: Manifest = {
        version: 1,
        duration: 130,
        source: { sig: 'bench', width: 1920, height: 1080, hasAudio: true },
        renditions: [
          {
            label: '1080p',
            file: '1080p.mp4',
            width: 1920,
            height: 1080,
            bitrate: Math.round((bytes * 8) / 130),
            bytes,
            mime: 'video/mp4; codecs="avc1.640028, mp4a.40.2"',
          },
        ],
        poster: { file: 'poster.jpg', width: 1280, height: 720 },
        sprite: { file: 'sprite.jpg', width: 1600, height: 90, frames: 1, interval: 130 },
        thumbnails: { file: 'thumbs.vtt' },
        trailer: { file: 'trailer.mp4', width: 640, height: 360, duration: 6, bytes: 0 },
        encodedAt: Date.now(),
      };
      const now = Date.now();
      const job = { status: 'done', progress: 1000, manifest: JSON.stringify(manifest), updated_at: now };
      const updated = await knex('media_jobs').where({ content_type: 'video', path: folder }).update(job);
      if (!updated) await knex('media_jobs').insert({ content_type: 'video', path: folder, source_sig: 'bench', created_at: now, ...job });
    } finally {
      await knex.destroy();
    }

    // The anchor: plain nginx static on the same machine, same file (hard link: same page cache).
    const staticDir = join(work, 'static');
    mkdirSync(staticDir, { recursive: true });
    hardLinkOrCopy(big, join(staticDir, 'big.mp4'));
    writeFileSync(join(staticDir, 'blank.html'), '<!doctype html><title>bench</title><body></body>');
    const staticPort = PORT_BASE + 1;
    staticNginx = await startNginx({
      bffUrl: stack.bffUrl,
      mediaUrl: stack.mediaUrl,
      spaDir: join(repo, 'frontend/dist'),
      mediaRoot: stack.mediaRoot,
      port: PORT_BASE,
      extraHttp: `\nserver {\n    listen 127.0.0.1:${staticPort};\n    root ${staticDir};\n    sendfile on;\n    tcp_nopush on;\n}\n`,
    });
    const staticOrigin = `http://127.0.0.1:${staticPort}`;
    const rendition = `/members/videorenditions/${folder}/1080p.mp4`;

    browser = await launchChromium(
      '--disable-background-networking',
      '--disable-component-update',
      '--autoplay-policy=no-user-gesture-required',
    );
    // One sign-in (the login route is rate limited); every member context starts from its cookies,
    // and the SPA's /api/me on each page load renews the short-lived media cookie.
    const login = await browser.newContext({ baseURL: stack.baseUrl });
    const signIn = await login.request.post('/api/login', { data: DEMO_MEMBER, headers: { Origin: stack.baseUrl } });
    if (signIn.status() !== 200) throw new Error(`sign-in failed: ${signIn.status()}`);
    const memberState = await login.storageState();
    await login.close();
    const fresh = async (origin: string, member: boolean) => {
      const context = await browser!.newContext({
        baseURL: origin,
        viewport: { width: 1366, height: 900 },
        storageState: member ? memberState : undefined,
      });
      await context.addInitScript(() => window.localStorage.setItem('ageConfirmed', 'true'));
      // tsx (esbuild keepNames) wraps named functions in __name(); the page has no such helper.
      await context.addInitScript('window.__name = (f) => f;');
      return context.newPage();
    };

    // Warm the page cache once per path so both rows read the file from memory.
    for (const [origin, src, member] of [
      [staticOrigin, '/big.mp4', false],
      [stack.baseUrl, rendition, true],
    ] as const) {
      const page = await fresh(origin, member);
      await page.goto(member ? '/404-bench' : '/blank.html');
      await page.waitForLoadState('networkidle');
      await bareVideo(page, src);
      await page.context().close();
    }

    const rows: Record<'static' | 'front door' | 'player', Sample[]> = { static: [], 'front door': [], player: [] };
    const measure = {
      static: async () => {
        const page = await fresh(staticOrigin, false);
        await page.goto('/blank.html');
        await page.waitForLoadState('networkidle');
        rows.static.push(await bareVideo(page, '/big.mp4'));
        await page.context().close();
      },
      'front door': async () => {
        const page = await fresh(stack.baseUrl, true);
        // Any SPA page gives the origin (and renews the media cookie); the measurement is a bare <video>.
        await page.goto('/404-bench');
        await page.waitForLoadState('networkidle');
        rows['front door'].push(await bareVideo(page, rendition));
        await page.context().close();
      },
      player: async () => {
        const page = await fresh(stack.baseUrl, true);
        rows.player.push(await playerPage(page, `/video/${folder}`));
        await page.context().close();
      },
    };
    const order = Object.keys(measure) as (keyof typeof measure)[];
    for (let i = 0; i < RUNS; i += 1) {
      // Rotate the order so that no row always runs first (or right after another's heavy read).
      for (let j = 0; j < order.length; j += 1) await measure[order[(i + j) % order.length]!]();
    }

    console.log(`player bench: ${(bytes / 1024 / 1024).toFixed(0)} MiB 1080p MP4 (${big}), ${RUNS} samples per row, fresh context each`);
    console.log(
      `${''.padEnd(12)} ${'first frame p50'.padStart(16)} ${'p90'.padStart(8)} ${'seek→frame p50'.padStart(16)} ${'p90'.padStart(8)}`,
    );
    for (const [name, samples] of Object.entries(rows)) {
      const ttff = samples.map((s) => s.ttff);
      const seek = samples.map((s) => s.seek);
      console.log(
        `${name.padEnd(12)} ${ms(quantile(ttff, 0.5)).padStart(16)} ${ms(quantile(ttff, 0.9)).padStart(8)} ${ms(quantile(seek, 0.5)).padStart(16)} ${ms(quantile(seek, 0.9)).padStart(8)}`,
      );
    }
    const ratio = (row: Sample[], key: keyof Sample) =>
      (
        quantile(
          row.map((s) => s[key]),
          0.5,
        ) /
        quantile(
          rows.static.map((s) => s[key]),
          0.5,
        )
      ).toFixed(2);
    console.log(`ratio front door / static: first frame ${ratio(rows['front door'], 'ttff')}, seek ${ratio(rows['front door'], 'seek')}`);
    console.log(
      `ratio player page / static: first frame ${ratio(rows.player, 'ttff')}, seek ${ratio(rows.player, 'seek')}  (goal: < 500 ms each through the front door)`,
    );
    if (process.env.BENCH_RAW === '1') console.log(JSON.stringify(rows));
  } finally {
    await browser?.close();
    await staticNginx?.stop();
    await stack.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
