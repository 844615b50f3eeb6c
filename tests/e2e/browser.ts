import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createKnex } from '@media-site/db';
import { DEMO_MEMBER, ensureDemoMember } from '@media-site/ops';
import { catalogCli } from '../src/catalog-cli';
import { launchChromium } from '../src/chromium';
import { startStack } from '../src/stack';
import { trackRequests } from './quiet';
import type { Stack } from '../src/stack';

// test-results/ at the repository's root: CI keeps it as the run's artifacts.
export const screenshotDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-results', 'screenshots');

export interface SeededPaths {
  photo: string;
  video: string;
  /** The first video whose original is MPEG-PS (`.mpg`): no browser plays it, only its renditions. */
  mpegVideo: string;
  vod: string;
  free: string;
  model: string;
}

export interface Site {
  stack: Stack;
  browser: Browser;
  seeded: SeededPaths;
  /** A page on the site; `errors` collects console errors and uncaught exceptions. */
  open(options?: { width?: number; height?: number; ageConfirmed?: boolean }): Promise<{ page: Page; errors: string[] }>;
  stop(): Promise<void>;
}

/** The seeded items the tests open; with `demoMember`, the demo member (DEMO_MEMBER) is made sure of first. */
async function seededPaths(databaseUrl: string, demoMember: boolean): Promise<SeededPaths> {
  const knex = createKnex(databaseUrl);
  try {
    if (demoMember) await ensureDemoMember(knex);
    const first = async (table: string, column = 'path') => String((await knex(table).orderBy('id').first(column))?.[column]);
    return {
      photo: await first('photosets'),
      video: await first('videos'),
      mpegVideo: String((await knex('videos').where('prename', 'like', '%.mpg').orderBy('id').first('path'))?.path),
      vod: await first('vods'),
      free: await first('freephotosets'),
      model: String(
        (await knex('models').where('modelname', 'Model A1').first('modelname'))?.modelname ?? (await first('models', 'modelname')),
      ),
    };
  } finally {
    await knex.destroy();
  }
}

/** The stack and a Chromium; `demoMember`: the demo member can sign in (signInAsDemo); `env`: the stack's environment. */
export async function startSite({ demoMember = false, env }: { demoMember?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<Site> {
  const stack = await startStack({ env });
  const seeded = await seededPaths(stack.databaseUrl, demoMember);
  const browser = await launchChromium('--disable-background-networking', '--disable-component-update', '--disable-sync');
  mkdirSync(screenshotDir, { recursive: true });
  return {
    stack,
    browser,
    seeded,
    async open({ width = 1366, height = 900, ageConfirmed = true } = {}) {
      const context = await browser.newContext({ baseURL: stack.baseUrl, viewport: { width, height } });
      if (ageConfirmed) await context.addInitScript(() => window.localStorage.setItem('ageConfirmed', 'true'));
      const page = await context.newPage();
      trackRequests(page);
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      return { page, errors };
    },
    async stop() {
      await browser.close();
      await stack.stop();
    },
  };
}

/** Signs the demo member in through /login (startSite({ demoMember: true })); done when the header offers Sign out. */
export async function signInAsDemo(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(DEMO_MEMBER.username);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_MEMBER.password);
  await page.locator('main').getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

export async function scrollToBottom(page: Page): Promise<void> {
  // Home's free photo sets strip comes from its own request and is drawn above the update columns:
  // scrolling before it is in leaves the infinite-scroll sentinel below the screen once the strip
  // pushes the columns down (a CI failure on the phone size). Wait for state, not time.
  if (new URL(page.url()).pathname === '/') {
    await page
      .locator('#free-sets li')
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
  }
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
}

/** /vod with more than its first page of cards (infinite scroll), scrolled down to `y`. */
export async function vodScrolledTo(page: Page, y: number): Promise<void> {
  await page.goto('/vod');
  await page.locator('main li.card').first().waitFor();
  await scrollToBottom(page);
  await page.waitForFunction(() => document.querySelectorAll('main li.card').length > 20);
  await page.evaluate((top) => window.scrollTo(0, top), y);
  await page.waitForFunction((top) => window.scrollY === top, y);
}

/** The journeys' two sizes: a laptop and a phone. */
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
export type Viewport = keyof typeof VIEWPORTS;

/** A page at `viewport` with the age notice already answered; `errors` collects uncaught exceptions. */
export async function openPage(browser: Browser, baseURL: string, viewport: Viewport): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORTS[viewport] });
  await context.addInitScript(() => window.localStorage.setItem('ageConfirmed', 'true'));
  const page = await context.newPage();
  trackRequests(page);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

/** A journey's screenshots, named `{journey}-{name}-{width}.png` in screenshotDir. */
export const screenshotsOf = (journey: string) => (page: Page, name: string, viewport: Viewport) =>
  page.screenshot({ path: join(screenshotDir, `${journey}-${name}-${VIEWPORTS[viewport].width}.png`), fullPage: false });

/**
 * A stack started with `options` (startStack's) and a Chromium for it, for the suite this is called
 * in (beforeAll / afterAll); both are read once the suite has started.
 */
export function stackWithBrowser(options: Parameters<typeof startStack>[0]): { readonly stack: Stack; readonly browser: Browser } {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    stack = await startStack(options);
    browser = await launchChromium();
    mkdirSync(screenshotDir, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the stack and browser start in beforeAll');
    return value;
  };
  return {
    get stack() {
      return started(stack);
    },
    get browser() {
      return started(browser);
    },
  };
}

/**
 * A site (startSite) with content of the suite's own: before all, `write` lays out a temporary
 * folder as docs/operate.md describes and `ops ingest --wait` adds and encodes it, as an operator
 * would; after all, the site stops and the folder goes. The site is read once the suite has started.
 */
export function siteWithContent(name: string, write: (folder: string) => Promise<void>): { readonly site: Site } {
  let site: Site | undefined;
  let folder: string | undefined;
  beforeAll(async () => {
    site = await startSite();
    folder = mkdtempSync(join(tmpdir(), `${name}-`));
    await write(folder);
    const ingest = await catalogCli(site.stack, 'ingest', folder, '--wait', '--quiet');
    expect(ingest.code, `${ingest.out}\n${ingest.err}`).toBe(0);
  }, 300_000);
  afterAll(async () => {
    await site?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  return {
    get site() {
      if (!site) throw new Error('the site starts in beforeAll');
      return site;
    },
  };
}
