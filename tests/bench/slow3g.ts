/**
 * npm run bench:slow3g — home's first thumbnail on DevTools' Slow 3G (2,000 ms latency,
 * 50 KB/s down and up, cache off). Goal: ≤ 7 s.
 *
 * The stack of the e2e tests (nginx → bff, media service; the production SPA build) and Chromium
 * through playwright-core, a fresh context per round. Through a CDP session: Network.enable,
 * Network.setCacheDisabled(true), Network.emulateNetworkConditions. The clock is the page's own
 * (performance.now(): 0 is navigation start) and stops when the first card thumbnail in document
 * order is complete with a naturalWidth and inside the viewport.
 *
 * Rows: a returning visitor (localStorage.ageConfirmed, as the e2e tests set it) at 390x844 and
 * 1280x800, BENCH_RUNS rounds each (default 3): median and spread (min–max). Then a first visit
 * (no flag) per size: when the age notice shows and, "Enter" pressed at once, when the first thumbnail is in.
 * Also: the bytes on the wire before the first thumbnail by resource type, the requests in order
 * (start and end, seconds after navigation start: each wave of requests costs a 2 s round trip,
 * and HTTP/1.1 gives 6 connections), and the initial JavaScript (what index.html loads) gzipped.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser, CDPSession } from 'playwright-core';
import { launchChromium } from '../src/chromium';
import { startStack } from '../src/stack';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SLOW_3G = { offline: false, latency: 2000, downloadThroughput: 50 * 1024, uploadThroughput: 50 * 1024 };
const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;
const GOAL_MS = 7000;

interface Request {
  url: string;
  type: string;
  start: number;
  end?: number;
  bytes: number;
}

interface Round {
  firstThumb: number;
  gate?: number;
  entered?: number;
  requests: Request[];
}

/**
 * In the page, from the first script on: when the first card thumbnail is in and on screen (and
 * the age notice, if any). A string, not a function: tsx's helpers (`__name`) do not exist there.
 */
const WATCH_FIRST_THUMBNAIL = `(() => {
  const check = () => {
    if (window.gateShown === undefined && document.querySelector('dialog[open]')) window.gateShown = performance.now();
    if (window.firstThumb === undefined) {
      const img = document.querySelector('main li.card img');
      if (img && img.complete && img.naturalWidth > 0) {
        const box = img.getBoundingClientRect();
        if (box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth) window.firstThumb = performance.now();
      }
      requestAnimationFrame(check);
    }
  };
  // A load event stops the clock at once; the frame loop catches the rest (a cached image, layout).
  document.addEventListener('load', check, true);
  requestAnimationFrame(check);
})();`;

/** Every request of the page through CDP, in seconds after the document request started. */
function recordRequests(cdp: CDPSession): Request[] {
  const requests: Request[] = [];
  const byId = new Map<string, Request>();
  let origin: number | undefined;
  cdp.on('Network.requestWillBeSent', (event) => {
    origin ??= event.timestamp;
    const request: Request = { url: event.request.url, type: event.type ?? 'Other', start: event.timestamp - origin, bytes: 0 };
    byId.set(event.requestId, request);
    requests.push(request);
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = byId.get(event.requestId);
    if (request && origin !== undefined) {
      request.end = event.timestamp - origin;
      request.bytes = event.encodedDataLength;
    }
  });
  return requests;
}

async function round(browser: Browser, baseURL: string, viewport: keyof typeof VIEWPORTS, returning: boolean): Promise<Round> {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORTS[viewport] });
  try {
    if (returning) await context.addInitScript(() => window.localStorage.setItem('ageConfirmed', 'true'));
    await context.addInitScript({ content: WATCH_FIRST_THUMBNAIL });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', SLOW_3G);
    const requests = recordRequests(cdp);
    await page.goto('/', { waitUntil: 'commit' });
    let gate: number | undefined;
    let entered: number | undefined;
    if (!returning) {
      // A first visit: the age notice stands in for the page until "Enter" (pressed at once here).
      gate = (await (
        await page.waitForFunction(() => (window as unknown as { gateShown?: number }).gateShown, null, { timeout: 60_000, polling: 100 })
      ).jsonValue()) as number;
      await page.getByRole('button', { name: /Enter$/ }).click();
      entered = await page.evaluate(() => performance.now());
    }
    const firstThumb = (await (
      await page
        .waitForFunction(() => (window as unknown as { firstThumb?: number }).firstThumb, null, { timeout: 60_000, polling: 100 })
        .catch(async (error: unknown) => {
          console.log(`no thumbnail after 60 s; requests:\n${waterfall({ firstThumb: Infinity, requests }).join('\n')}`);
          console.log(await page.evaluate(() => document.querySelector('main')?.innerHTML.slice(0, 2000)));
          throw error;
        })
    ).jsonValue()) as number;
    const result = { firstThumb, gate, entered };
    return { ...result, requests };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const s = (msValue: number) => `${(msValue / 1000).toFixed(2)} s`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function pathOf(url: string): string {
  const { pathname, search } = new URL(url);
  const short = pathname.replace(/^\/assets\/(.{24}).*$/, '/assets/$1…');
  return `${short}${search}`;
}

/** Bytes of the requests done before the first thumbnail, by CDP resource type. */
function bytesBefore({ firstThumb, requests }: Round): string {
  const byType = new Map<string, { n: number; bytes: number }>();
  for (const r of requests) {
    if (r.end === undefined || r.end * 1000 > firstThumb) continue;
    const entry = byType.get(r.type) ?? { n: 0, bytes: 0 };
    byType.set(r.type, { n: entry.n + 1, bytes: entry.bytes + r.bytes });
  }
  const total = [...byType.values()].reduce((sum, { bytes }) => sum + bytes, 0);
  const parts = [...byType].map(([type, { n, bytes }]) => `${type} ${n}× ${kb(bytes)}`);
  return `${parts.join(', ')}; total ${kb(total)}`;
}

function waterfall({ firstThumb, requests }: Round): string[] {
  const lines = requests
    .filter((r) => r.start * 1000 <= firstThumb)
    .map((r) => {
      const end = r.end === undefined ? '   …  ' : r.end.toFixed(2).padStart(6);
      return `      ${r.start.toFixed(2).padStart(6)} → ${end}  ${r.type.padEnd(10)} ${kb(r.bytes).padStart(8)}  ${pathOf(r.url)}`;
    });
  return [...lines, `      first thumbnail at ${s(firstThumb)}`];
}

/** The JavaScript index.html loads (its module script and modulepreloads), gzipped at level 9 as bundleSize.test.ts measures it. */
function initialJs(): string {
  const dist = resolve(repo, 'frontend/dist');
  const html = readFileSync(resolve(dist, 'index.html'), 'utf8');
  const files = [
    ...[...html.matchAll(/<script\s[^>]*?\bsrc="([^"]+)"/g)].map((m) => m[1] ?? ''),
    ...[...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1] ?? ''),
  ];
  const sizes = files.map((file) => gzipSync(readFileSync(resolve(dist, `.${file}`))).length);
  const css = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map(
    (m) => gzipSync(readFileSync(resolve(dist, `.${m[1] ?? ''}`))).length,
  );
  const total = sizes.reduce((a, b) => a + b, 0);
  return `${kb(total)} gzipped over ${files.length} files (${sizes.map(kb).join(' + ')}); CSS ${kb(css.reduce((a, b) => a + b, 0))}`;
}

async function main(): Promise<void> {
  const stack = await startStack({ frontDoor: 'nginx' });
  const browser = await launchChromium('--disable-background-networking', '--disable-component-update', '--disable-sync');
  try {
    console.log(`Slow 3G (latency ${SLOW_3G.latency} ms, ${SLOW_3G.downloadThroughput / 1024} KB/s, cache off), ${RUNS} rounds per size`);
    console.log(`initial JavaScript: ${initialJs()}`);
    // Unmeasured visits fill nginx's thumbnail and catalog caches, as on a live site.
    for (const viewport of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]) await round(browser, stack.baseUrl, viewport, true);
    for (const viewport of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]) {
      const rounds: Round[] = [];
      for (let i = 0; i < RUNS; i += 1) rounds.push(await round(browser, stack.baseUrl, viewport, true));
      const times = rounds.map((r) => r.firstThumb);
      const mid = rounds.find((r) => r.firstThumb === median(times)) ?? rounds[0];
      const { width, height } = VIEWPORTS[viewport];
      console.log(
        `\n${viewport} ${width}x${height}, returning visitor: first thumbnail median ${s(median(times))}, spread ${s(Math.min(...times))}–${s(Math.max(...times))} (${times.map(s).join(', ')}); goal ≤ ${s(GOAL_MS)}: ${median(times) <= GOAL_MS ? 'met' : 'missed'}`,
      );
      if (!mid) continue;
      console.log(`   bytes before it (median round): ${bytesBefore(mid)}`);
      console.log('   requests started before it (s after navigation start):');
      for (const line of waterfall(mid)) console.log(line);
      const slowest = rounds.find((r) => r.firstThumb === Math.max(...times));
      if (slowest && slowest.firstThumb - median(times) > 1000) {
        console.log('   the slowest round (more than 1 s over the median):');
        for (const line of waterfall(slowest)) console.log(line);
      }
      const first = await round(browser, stack.baseUrl, viewport, false);
      console.log(
        `   first visit (no age flag, Enter pressed at once): age notice at ${s(first.gate ?? NaN)}, Enter at ${s(first.entered ?? NaN)}, first thumbnail at ${s(first.firstThumb)} (${s(first.firstThumb - (first.entered ?? NaN))} after Enter)`,
      );
    }
  } finally {
    await browser.close();
    await stack.stop();
  }
}

await main();
